//go:build !js

package graphdb

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	cayleykv "github.com/cayleygraph/cayley/graph/kv"
	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/loomwork/loom/backend/crash"
)

// HasBolt tells whether this build can open bolt stores (false under js).
const HasBolt = true

// BoltFile is the bolt file in a graph folder.
const BoltFile = "indexes.bolt"

// cayleyOptions: the bloom filter would rescan every quad on open.
var cayleyOptions = map[string]any{cayleykv.OptNoBloom: true}

// OpenBolt opens the bolt store in dir, which CreateBolt made.
//
// A store another process has open for writing is ErrInUse at once (or
// after o.Wait). A folder without a store is ErrNoGraph; a store whose
// creation never finished (an empty file, or a file without Cayley's
// buckets and without a quad) is an *UnfinishedError, which the caller may
// replace with CreateBolt when nothing else in the workspace depends on it.
// A file that is not a readable bolt store is a *DamagedError.
func OpenBolt(dir string, o BoltOptions) (*Store, error) {
	path := filepath.Join(dir, BoltFile)
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, ErrNoGraph
	case err != nil:
		return nil, fmt.Errorf("open graph store %s: %w", path, err)
	case !st.Mode().IsRegular():
		return nil, &DamagedError{Path: path, Problem: "is not a regular file"}
	case st.Size() == 0:
		return nil, &UnfinishedError{Path: path, Problem: "the file is empty"}
	}
	wait := o.Wait
	if wait <= 0 {
		wait = time.Nanosecond // bbolt waits forever on 0; this tries once
	}
	db, err := openBoltFile(path, o.ReadOnly, wait)
	if err != nil {
		return nil, err
	}
	s := &Store{backend: "bolt", path: path, kv: &boltKV{db: db}, readOnly: o.ReadOnly}
	if err := s.openCayley(); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// openBoltFile opens the bolt file, naming it and the problem on failure.
func openBoltFile(path string, readOnly bool, wait time.Duration) (db *bolt.DB, err error) {
	defer protect()()
	defer func() { // bbolt checks meta pages, not every page it maps
		if r := recover(); r != nil {
			db, err = nil, &DamagedError{Path: path, Problem: fmt.Sprint(r)}
		}
	}()
	db, err = bolt.Open(path, 0o644, &bolt.Options{ReadOnly: readOnly, Timeout: wait})
	switch {
	case err == nil:
		return db, nil
	case errors.Is(err, berrors.ErrTimeout):
		return nil, ErrInUse
	case errors.Is(err, os.ErrPermission):
		return nil, fmt.Errorf("open graph store %s: %w", path, ErrPermission)
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrChecksum), errors.Is(err, berrors.ErrVersionMismatch),
		errors.Is(err, berrors.ErrInvalidMapping):
		return nil, &DamagedError{Path: path, Problem: "not a readable bolt database (" + err.Error() + ")"}
	}
	if errors.Is(err, syscall.EROFS) {
		return nil, fmt.Errorf("open graph store %s: %w", path, ErrReadOnlyFS)
	}
	return nil, &DamagedError{Path: path, Problem: err.Error()}
}

// openCayley opens Cayley's quad store on the open bolt file, guarded
// against a damaged file like every other call.
func (s *Store) openCayley() (err error) {
	defer protect()()
	defer s.guard(&err)
	qs, err := cayleykv.New(s.kv, cayleyOptions)
	if err == nil {
		s.qs = qs
		return nil
	}
	if errors.Is(err, errNotInitialized) {
		if empty, eerr := s.kvEmpty(); eerr == nil && empty {
			return &UnfinishedError{Path: s.path, Problem: "its creation never finished (no graph in it)"}
		}
		return &DamagedError{Path: s.path, Problem: "Cayley's metadata is missing"}
	}
	return &DamagedError{Path: s.path, Problem: err.Error()}
}

// kvEmpty tells whether Cayley's log bucket, where every value and quad
// is recorded, holds nothing: a file made but never written a quad to.
func (s *Store) kvEmpty() (bool, error) {
	empty := true
	err := s.kv.db.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket([]byte("log")); b != nil {
			k, _ := b.Cursor().First()
			empty = k == nil
		}
		return nil
	})
	return empty, err
}

// CreateBolt makes an empty bolt store in dir, atomically: it is built in
// a folder beside dir and renamed into place, so a process killed at any
// moment leaves either no store or a whole one (never a file a later open
// cannot read). Whatever dir held is replaced: callers check first that it
// is missing or unfinished.
func CreateBolt(dir string) error {
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("create graph store in %s: %w", dir, err)
	}
	tmp, err := os.MkdirTemp(parent, filepath.Base(dir)+newSuffix)
	if err != nil {
		return fmt.Errorf("create graph store in %s: %w", dir, err)
	}
	if err := initBolt(filepath.Join(tmp, BoltFile)); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("create graph store in %s: %w", dir, err)
	}
	if err := syncDir(tmp); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("create graph store in %s: %w", dir, err)
	}
	crash.At("create-before-rename")
	if err := os.RemoveAll(dir); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("create graph store in %s: %w", dir, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("create graph store in %s: %w", dir, err)
	}
	return syncDir(parent)
}

// newSuffix marks the folders CreateBolt builds stores in.
const newSuffix = ".new-"

// initBolt writes Cayley's buckets, version and index list into a new
// bolt file in one transaction.
func initBolt(path string) error {
	db, err := bolt.Open(path, 0o644, &bolt.Options{Timeout: time.Nanosecond})
	if err != nil {
		return err
	}
	k := &boltKV{db: db}
	if err := k.begin(); err != nil {
		db.Close()
		return err
	}
	if err := cayleykv.Init(k, cayleyOptions); err != nil {
		k.rollback()
		db.Close()
		return err
	}
	crash.At("create-before-commit")
	if err := k.commit(); err != nil {
		db.Close()
		return err
	}
	return db.Close()
}

// SweepUnfinished removes the folders beside dir in which a CreateBolt
// that was interrupted built a store. Call it while holding dir's store
// open for writing: a creator still running then fails its rename and
// opens dir instead, so removing its folder loses nothing.
func SweepUnfinished(dir string) {
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), filepath.Base(dir)+newSuffix+"*"))
	for _, m := range matches {
		os.RemoveAll(m)
	}
}

// syncDir makes a folder's entries durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, os.ErrInvalid) { // folders cannot be synced here
		return nil
	}
	return err
}

// reopenCayley drops Cayley's in-memory caches after a write that did not
// commit, so that none of them remembers what the rollback undid.
func (s *Store) reopenCayley() {
	if qs, err := cayleykv.New(s.kv, cayleyOptions); err == nil {
		s.qs = qs
	}
}
