package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/loomwork/loom/backend/storage"
)

// ReadOnlyWhenBusy falls back to reading when the folder cannot be written.
func TestBusyReasons(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("open workspace x: %w", storage.ErrInUse), "another Loom process"},
		{&fs.PathError{Op: "open", Path: "x/config.json.tmp", Err: syscall.EROFS}, "read-only file system"},
		{&fs.PathError{Op: "open", Path: "x/graph/indexes.bolt", Err: syscall.EACCES}, "permission denied"},
		{errors.New("something else"), ""},
	} {
		assert.Contains(t, busyReason(c.err), c.want)
		if c.want == "" {
			assert.Empty(t, busyReason(c.err))
		}
	}
}
