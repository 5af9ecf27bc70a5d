//go:build !js

package graphdb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

// newBolt makes a bolt store in a fresh folder and returns the folder.
func newBolt(t testing.TB, w *Write) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "graph")
	require.NoError(t, CreateBolt(dir))
	if w != nil {
		s, err := OpenBolt(dir, BoltOptions{})
		require.NoError(t, err)
		_, err = s.Apply(context.Background(), *w)
		require.NoError(t, err)
		require.NoError(t, s.Close())
	}
	return dir
}

func TestOpenBoltWithoutAStoreIsErrNoGraph(t *testing.T) {
	_, err := OpenBolt(filepath.Join(t.TempDir(), "graph"), BoltOptions{})
	assert.ErrorIs(t, err, ErrNoGraph)
	_, err = OpenBolt(filepath.Join(t.TempDir(), "graph"), BoltOptions{ReadOnly: true})
	assert.ErrorIs(t, err, ErrNoGraph)
}

func TestCreateBoltLeavesNothingBeside(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "graph")
	require.NoError(t, CreateBolt(dir))
	entries, err := os.ReadDir(parent)
	require.NoError(t, err)
	require.Len(t, entries, 1, "only the store's folder: the one it was built in was renamed")
	s, err := OpenBolt(dir, BoltOptions{})
	require.NoError(t, err)
	m, err := s.Meta(context.Background())
	require.NoError(t, err)
	assert.Zero(t, m.Generation)
	require.NoError(t, s.Close())
}

// A folder an interrupted CreateBolt built in is removed by the next
// writer; the store in place is untouched.
func TestSweepUnfinishedRemovesOnlyCreationFolders(t *testing.T) {
	w := sampleWrite(2, 2, 0)
	dir := newBolt(t, &w)
	parent := filepath.Dir(dir)
	left := filepath.Join(parent, "graph"+newSuffix+"123")
	require.NoError(t, os.MkdirAll(left, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(left, BoltFile), []byte("half"), 0o644))
	other := filepath.Join(parent, "notes")
	require.NoError(t, os.MkdirAll(other, 0o755))
	SweepUnfinished(dir)
	_, err := os.Stat(left)
	assert.ErrorIs(t, err, os.ErrNotExist)
	_, err = os.Stat(other)
	assert.NoError(t, err)
	s, err := OpenBolt(dir, BoltOptions{})
	require.NoError(t, err)
	defer s.Close()
	snap, err := s.Load(context.Background())
	require.NoError(t, err)
	assert.Len(t, snap.Documents, 2)
}

func TestOneWriterOrManyReaders(t *testing.T) {
	w := sampleWrite(2, 2, 0)
	dir := newBolt(t, &w)

	writer, err := OpenBolt(dir, BoltOptions{})
	require.NoError(t, err)
	_, err = OpenBolt(dir, BoltOptions{})
	assert.ErrorIs(t, err, ErrInUse, "a second writer")
	_, err = OpenBolt(dir, BoltOptions{ReadOnly: true})
	assert.ErrorIs(t, err, ErrInUse, "bolt keeps readers out while a writer has the file")
	require.NoError(t, writer.Close())

	r1, err := OpenBolt(dir, BoltOptions{ReadOnly: true})
	require.NoError(t, err)
	r2, err := OpenBolt(dir, BoltOptions{ReadOnly: true})
	require.NoError(t, err, "readers share the store")
	assert.True(t, r1.ReadOnly())
	snap, err := r2.Load(context.Background())
	require.NoError(t, err)
	assert.Len(t, snap.Documents, 2)
	_, err = r1.Apply(context.Background(), Write{Remove: []string{"d-000000"}})
	assert.ErrorIs(t, err, ErrReadOnly)
	_, err = OpenBolt(dir, BoltOptions{})
	assert.ErrorIs(t, err, ErrInUse, "a writer waits for the readers")
	require.NoError(t, r1.Close())
	require.NoError(t, r2.Close())
	s, err := OpenBolt(dir, BoltOptions{})
	require.NoError(t, err)
	require.NoError(t, s.Close())
}

// A read-only open never writes the file: it works on a folder and file
// nobody may write.
func TestReadOnlyOpenWritesNothing(t *testing.T) {
	// (root writes through permissions: the bytes and the time are what
	// the test checks.)
	w := sampleWrite(2, 2, 0)
	dir := newBolt(t, &w)
	path := filepath.Join(dir, BoltFile)
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	st, err := os.Stat(path)
	require.NoError(t, err)
	require.NoError(t, os.Chmod(path, 0o444))
	require.NoError(t, os.Chmod(dir, 0o555))
	defer os.Chmod(dir, 0o755)
	s, err := OpenBolt(dir, BoltOptions{ReadOnly: true})
	require.NoError(t, err)
	_, err = s.Load(context.Background())
	require.NoError(t, err)
	require.NoError(t, s.Close())
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, before, after)
	st2, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, st.ModTime(), st2.ModTime())
}

// An older Loom could be killed between making the bolt file and filling
// it; such a store is recognisably unfinished (not damaged).
func TestUnfinishedStoresAreRecognised(t *testing.T) {
	t.Run("empty file", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "graph")
		require.NoError(t, os.MkdirAll(dir, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, BoltFile), nil, 0o644))
		_, err := OpenBolt(dir, BoltOptions{})
		var u *UnfinishedError
		require.ErrorAs(t, err, &u)
		assert.Equal(t, filepath.Join(dir, BoltFile), u.Path)
	})
	t.Run("bolt file without Cayley's buckets", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "graph")
		require.NoError(t, os.MkdirAll(dir, 0o755))
		db, err := bolt.Open(filepath.Join(dir, BoltFile), 0o644, nil)
		require.NoError(t, err)
		require.NoError(t, db.Close())
		_, err = OpenBolt(dir, BoltOptions{})
		var u *UnfinishedError
		require.ErrorAs(t, err, &u)
		require.NoError(t, CreateBolt(dir), "an unfinished store can be replaced")
		s, err := OpenBolt(dir, BoltOptions{})
		require.NoError(t, err)
		require.NoError(t, s.Close())
	})
}

// damage is one way a store file can be damaged.
type damage struct {
	name string
	do   func(b []byte, pageSize int) []byte
}

func damages() []damage {
	ds := []damage{
		{"garbage", func(b []byte, _ int) []byte {
			return []byte("this is not a bolt file, just some text of the wrong kind and length...")
		}},
		{"truncated to 10%", func(b []byte, ps int) []byte { return b[:max(len(b)/10, 2*ps)] }},
		{"truncated to the meta pages", func(b []byte, ps int) []byte { return b[:2*ps] }},
		{"truncated mid-page", func(b []byte, ps int) []byte { return b[:len(b)/2+ps/3] }},
		{"both meta pages zeroed", func(b []byte, ps int) []byte { clear(b[:2*ps]); return b }},
		{"first meta page zeroed", func(b []byte, ps int) []byte { clear(b[:ps]); return b }},
	}
	for p := 2; p < 12; p++ {
		ds = append(ds, damage{fmt.Sprintf("page %d zeroed", p), func(b []byte, ps int) []byte {
			if (p+1)*ps <= len(b) {
				clear(b[p*ps : (p+1)*ps])
			}
			return b
		}})
		ds = append(ds, damage{fmt.Sprintf("page %d header flipped", p), func(b []byte, ps int) []byte {
			if (p+1)*ps <= len(b) {
				for i := 0; i < 16; i++ {
					b[p*ps+i] ^= 0xa5
				}
			}
			return b
		}})
	}
	for k := 0; k < 20; k++ {
		ds = append(ds, damage{fmt.Sprintf("random bytes %d", k), func(b []byte, ps int) []byte {
			rng := uint64(7 + 7919*k) // each case its own bytes, run alone or not
			for i := 0; i < 64; i++ {
				rng ^= rng << 13
				rng ^= rng >> 7
				rng ^= rng << 17
				off := 2*ps + int(rng%uint64(len(b)-2*ps))
				b[off] ^= byte(rng >> 32)
			}
			return b
		}})
	}
	return ds
}

// A damaged store never panics (or faults): every call returns, an error
// names the file, and the store refuses further calls once it found damage.
func TestDamagedStoresNeverPanic(t *testing.T) {
	w := sampleWrite(40, 8, 0)
	clean := newBolt(t, &w)
	good, err := os.ReadFile(filepath.Join(clean, BoltFile))
	require.NoError(t, err)
	const pageSize = 4096
	ctx := context.Background()
	for _, d := range damages() {
		t.Run(d.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "graph")
			require.NoError(t, os.MkdirAll(dir, 0o755))
			path := filepath.Join(dir, BoltFile)
			require.NoError(t, os.WriteFile(path, d.do(append([]byte(nil), good...), pageSize), 0o644))
			named := func(err error) {
				t.Helper()
				if err == nil {
					return
				}
				var de *DamagedError
				var ue *UnfinishedError
				if errors.As(err, &de) || errors.As(err, &ue) {
					assert.Contains(t, err.Error(), path)
					return
				}
				assert.Contains(t, err.Error(), path, "an error that names the file: %v", err)
			}
			for _, ro := range []bool{true, false} {
				s, err := OpenBolt(dir, BoltOptions{ReadOnly: ro})
				named(err)
				if err != nil {
					continue
				}
				_, err = s.Meta(ctx)
				named(err)
				_, err = s.Load(ctx)
				named(err)
				if !ro {
					_, err = s.Apply(ctx, Write{Remove: []string{"d-000003"}, Documents: sampleWrite(1, 2, 900).Documents})
					named(err)
					if err != nil && errors.As(err, new(*DamagedError)) {
						_, again := s.Meta(ctx)
						assert.Error(t, again, "a store found damaged refuses later calls")
					}
				}
				named(s.Close())
			}
		})
	}
}
