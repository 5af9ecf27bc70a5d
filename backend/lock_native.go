//go:build !js

package backend

import (
	"errors"
	"os"
	"time"

	"github.com/boltdb/bolt"
)

// checkNotLocked fails fast when another process holds the bolt file
// (Cayley would otherwise wait for the lock forever).
func checkNotLocked(path string) error {
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	db, err := bolt.Open(path, 0o644, &bolt.Options{Timeout: 500 * time.Millisecond, ReadOnly: true})
	if err != nil {
		if errors.Is(err, bolt.ErrTimeout) {
			return errors.New("the workspace is in use by another Loom process (close it, or use another --workspace)")
		}
		return err
	}
	return db.Close()
}
