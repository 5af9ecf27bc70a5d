package vectors

import (
	"bytes"
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
		require.Equal(t, len(got), cap(got), "a shared row cannot be appended over its neighbour")
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

// TestLogBlockBoundaries reads a log in blocks of every awkward size, so
// that records, and their length fields, are cut at every point; a torn
// tail and a damaged record are found the same way.
func TestLogBlockBoundaries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v.vec")
	l, err := Open(path, 3)
	require.NoError(t, err)
	for i := range 60 {
		require.NoError(t, l.Put(fmt.Sprintf("key-%0*d", i%9, i), []float32{float32(i), 2, -3}))
	}
	require.NoError(t, l.Close())
	good, err := os.ReadFile(path)
	require.NoError(t, err)
	torn := append(bytes.Clone(good), 7, 0, 'a', 'b')
	damaged := bytes.Clone(good)
	damaged[len(damaged)/2] ^= 0xff

	saved := blockSize
	defer func() { blockSize = saved }()
	load := func(data []byte) (*Log, error) {
		p := filepath.Join(t.TempDir(), "v.vec")
		require.NoError(t, os.WriteFile(p, data, 0o644))
		return Open(p, 3)
	}
	blockSize = saved
	ref, err := load(damaged)
	require.NoError(t, err)
	damagedLen := ref.Len()
	require.Less(t, damagedLen, 60)
	ref.Close()
	for _, size := range []int{1, 2, 3, 5, 7, 16, 31, 64, 100, 1000} {
		blockSize = size
		for name, tt := range map[string]struct {
			data []byte
			want int
		}{"good": {good, 60}, "torn": {torn, 60}, "damaged": {damaged, damagedLen}} {
			got, err := load(tt.data)
			require.NoError(t, err)
			require.Equal(t, tt.want, got.Len(), "%s, blocks of %d", name, size)
			for i := range tt.want {
				v, ok := got.Get(fmt.Sprintf("key-%0*d", i%9, i))
				require.True(t, ok)
				require.Equal(t, []float32{float32(i), 2, -3}, v)
			}
			require.NoError(t, got.Close())
		}
	}
}
