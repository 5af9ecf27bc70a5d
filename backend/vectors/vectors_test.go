package vectors

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLogRoundTripAndTornTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v.vec")
	l, err := Open(path, 3)
	require.NoError(t, err)
	require.NoError(t, l.Put("a", []float32{1, 0, 0}))
	require.NoError(t, l.Put("b", []float32{0, 1, 0}))
	require.NoError(t, l.Put("a", []float32{9, 9, 9}), "second put of a key is ignored")
	require.Error(t, l.Put("c", []float32{1}), "wrong dimension")
	require.NoError(t, l.Close())

	// Tear the tail: half a record appended, as a killed process would leave.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.Write([]byte{5, 0, 'x', 'y'})
	require.NoError(t, err)
	require.NoError(t, f.Close())

	l, err = Open(path, 3)
	require.NoError(t, err)
	assert.Equal(t, 2, l.Len())
	v, ok := l.Get("a")
	require.True(t, ok)
	assert.Equal(t, []float32{1, 0, 0}, v)
	require.NoError(t, l.Put("c", []float32{0, 0, 1}))
	require.NoError(t, l.Close())

	l, err = Open(path, 3)
	require.NoError(t, err)
	assert.Equal(t, 3, l.Len(), "records after a dropped torn tail are readable")
	require.NoError(t, l.Close())

	_, err = Open(path, 4)
	assert.ErrorContains(t, err, "dimension 3")
}

// TestLogManyRecords reads back more records than one arena holds, with
// keys of varied lengths, bit for bit.
func TestLogManyRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v.vec")
	l, err := Open(path, 5)
	require.NoError(t, err)
	want := map[string][]float32{}
	for i := range 3000 {
		key := fmt.Sprintf("h:%0*d", 1+i%90, i)
		v := []float32{float32(i), -float32(i) / 3, 1e-30, float32(i % 7), 0.5}
		want[key] = v
		require.NoError(t, l.Put(key, v))
	}
	require.NoError(t, l.Close())
	l, err = Open(path, 5)
	require.NoError(t, err)
	defer l.Close()
	require.Equal(t, len(want), l.Len())
	for key, v := range want {
		got, ok := l.Get(key)
		require.True(t, ok, key)
		require.Equal(t, v, got, key)
	}
}

// TestLogDamagedRecordDropsTheRest: a record whose checksum fails ends the
// log there (as a torn tail does); the file is cut and appends go on.
func TestLogDamagedRecordDropsTheRest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v.vec")
	l, err := Open(path, 4)
	require.NoError(t, err)
	for i := range 2000 {
		require.NoError(t, l.Put(fmt.Sprint("k", i), []float32{float32(i), 1, 2, 3}))
	}
	require.NoError(t, l.Close())
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	// Record i starts at 12 + Σ(2+len(key)+16+4) of the ones before it.
	off := 12
	for i := range 1500 {
		off += 2 + len(fmt.Sprint("k", i)) + 16 + 4
	}
	b[off+2+len("k1500")+5] ^= 1 // inside record 1500's vector
	require.NoError(t, os.WriteFile(path, b, 0o644))

	l, err = Open(path, 4)
	require.NoError(t, err)
	assert.Equal(t, 1500, l.Len())
	_, ok := l.Get("k1500")
	assert.False(t, ok)
	v, ok := l.Get("k1499")
	require.True(t, ok)
	assert.Equal(t, []float32{1499, 1, 2, 3}, v)
	require.NoError(t, l.Put("after", []float32{4, 4, 4, 4}))
	require.NoError(t, l.Close())
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, int64(off+2+len("after")+16+4), st.Size(), "cut at the damaged record, then appended")

	l, err = Open(path, 4)
	require.NoError(t, err)
	assert.Equal(t, 1501, l.Len())
	require.NoError(t, l.Close())
}

// TestLogCutAnywhere opens a log cut at every byte, as a process killed
// mid-append (or a disk that lost the end of the file) would leave it:
// every whole record before the cut is read back, the rest is dropped, the
// file is cut back to the last whole record and appends go on from there.
func TestLogCutAnywhere(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v.vec")
	l, err := Open(path, 3)
	require.NoError(t, err)
	var ends []int // the file's length after each record
	end := hdrLen
	for i := range 12 {
		key := fmt.Sprintf("key-%0*d", i%9, i)
		require.NoError(t, l.Put(key, []float32{float32(i), 2, -3}))
		end += 2 + len(key) + 12 + 4
		ends = append(ends, end)
	}
	require.NoError(t, l.Close())
	whole, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Len(t, whole, end)

	for cut := 0; cut <= len(whole); cut++ {
		p := filepath.Join(t.TempDir(), "v.vec")
		require.NoError(t, os.WriteFile(p, whole[:cut], 0o644))
		l, err := Open(p, 3)
		require.NoError(t, err, "cut at %d", cut)
		n := 0
		for n < len(ends) && ends[n] <= cut {
			n++
		}
		require.Equal(t, n, l.Len(), "cut at %d", cut)
		for i := range n {
			v, ok := l.Get(fmt.Sprintf("key-%0*d", i%9, i))
			require.True(t, ok)
			require.Equal(t, []float32{float32(i), 2, -3}, v)
		}
		require.NoError(t, l.Put("after", []float32{7, 7, 7}))
		require.NoError(t, l.Close())
		l, err = Open(p, 3)
		require.NoError(t, err)
		require.Equal(t, n+1, l.Len(), "cut at %d, then appended", cut)
		v, ok := l.Get("after")
		require.True(t, ok)
		require.Equal(t, []float32{7, 7, 7}, v)
		require.NoError(t, l.Close())
	}
}

// TestLogGetAfterPutAndClose: a vector put since open is read back before
// a flush; Has sees both kinds; a closed log holds nothing, and what Get
// returned before stays readable.
func TestLogGetAfterPutAndClose(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v.vec")
	l, err := Open(path, 2)
	require.NoError(t, err)
	require.NoError(t, l.Put("old", []float32{1, 2}))
	require.NoError(t, l.Close())
	l, err = Open(path, 2)
	require.NoError(t, err)
	require.NoError(t, l.Put("new", []float32{3, 4}))
	assert.True(t, l.Has("old"))
	assert.True(t, l.Has("new"))
	assert.False(t, l.Has("none"))
	dst := make([]float32, 2)
	require.True(t, l.Read("old", dst))
	assert.Equal(t, []float32{1, 2}, dst)
	require.True(t, l.Read("new", dst))
	assert.Equal(t, []float32{3, 4}, dst)
	old, _ := l.Get("old")
	require.NoError(t, l.Close())
	assert.Equal(t, []float32{1, 2}, old)
	_, ok := l.Get("old")
	assert.False(t, ok)
	assert.False(t, l.Read("old", dst))
	// A closed log refuses new vectors, with an error (not a panic): an
	// ingest's first stage may still be embedding when a re-embed closes it.
	assert.ErrorIs(t, l.Put("late", []float32{5, 6}), ErrClosed)
	assert.NoError(t, l.Flush())
}
