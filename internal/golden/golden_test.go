package golden

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEqual(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "out.golden")

	t.Run("a missing file fails and says how to write it", func(t *testing.T) {
		rec := &testing.T{}
		ok := runs(func() { Equal(rec, path, []byte("x")) })
		assert.False(t, ok || !rec.Failed(), "the comparison fails")
	})

	t.Run("update writes the file, then it compares equal", func(t *testing.T) {
		*update = true
		Equal(t, path, []byte("made\n"))
		*update = false
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, "made\n", string(b))
		assert.True(t, Equal(t, path, []byte("made\n")))
	})

	t.Run("a difference fails", func(t *testing.T) {
		rec := &testing.T{}
		assert.False(t, Equal(rec, path, []byte("changed\n")))
		assert.True(t, rec.Failed())
	})
}

// runs calls f and reports whether it returned (require stops a test with
// runtime.Goexit).
func runs(f func()) bool {
	done := make(chan bool)
	go func() {
		returned := false
		defer func() { done <- returned }()
		f()
		returned = true
	}()
	return <-done
}
