package search

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/loomwork/loom/backend/mapfile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// matrixFixture is vectors of dim with some slots absent (never set, and
// removed).
func matrixFixture(t *testing.T, dim, slots int) *Vectors {
	t.Helper()
	r := rand.New(rand.NewPCG(3, uint64(dim)))
	v := NewVectors(dim)
	for slot := range slots {
		if slot%7 != 3 {
			v.Set(int32(slot), randomVector(r, dim))
		}
	}
	v.Remove(int32(slots / 2))
	return v
}

func writeRows(t *testing.T, v *Vectors) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, v.WriteRows(&b))
	return b.Bytes()
}

// sameVectors: the same slots, rows bit for bit and scores.
func sameVectors(t *testing.T, want, got *Vectors) {
	t.Helper()
	require.Equal(t, want.Slots(), got.Slots())
	require.Equal(t, want.Len(), got.Len())
	for slot := range int32(want.Slots()) {
		require.Equal(t, want.Has(slot), got.Has(slot), "slot %d", slot)
		require.Equal(t, want.Row(slot), got.Row(slot), "slot %d", slot)
	}
	q := randomVector(rand.New(rand.NewPCG(9, 9)), want.Dim())
	a, b := make([]float32, want.Slots()), make([]float32, got.Slots())
	want.ScoreAll(q, a)
	got.ScoreAll(q, b)
	require.Equal(t, a, b)
}

func TestAdoptRowsRoundTrip(t *testing.T) {
	for _, tt := range []struct{ dim, slots int }{{3, 1}, {100, 70}, {768, 40}, {5, 0}} {
		v := matrixFixture(t, tt.dim, tt.slots)
		data := writeRows(t, v)

		got := NewVectors(tt.dim)
		released := false
		require.NoError(t, got.AdoptRows(data, func() { released = true }))
		sameVectors(t, v, got)
		if tt.slots > 0 {
			assert.False(t, released, "in place: released only when the vectors are unreachable")
		}

		// Unaligned bytes are copied, and released at once.
		odd := append([]byte{0}, data...)[1:]
		copied := NewVectors(tt.dim)
		released = false
		require.NoError(t, copied.AdoptRows(odd, func() { released = true }))
		if tt.slots > 0 {
			assert.True(t, released)
		}
		sameVectors(t, v, copied)
	}
}

func TestAdoptRowsRejectsBadData(t *testing.T) {
	v := matrixFixture(t, 16, 300)
	data := writeRows(t, v)
	try := func(b []byte, dim int) error {
		called := false
		err := NewVectors(dim).AdoptRows(b, func() { called = true })
		assert.False(t, called, "release called on error")
		return err
	}
	require.NoError(t, try(bytes.Clone(data), 16))
	assert.ErrorIs(t, try(bytes.Clone(data), 17), ErrBadIndex, "another dimension")
	assert.ErrorIs(t, try(data[:len(data)-4], 16), ErrBadIndex, "truncated")
	assert.ErrorIs(t, try(append(bytes.Clone(data), 0, 0, 0, 0), 16), ErrBadIndex, "too long")
	assert.ErrorIs(t, try(nil, 16), ErrBadIndex, "empty")
	// A flipped bit anywhere after the header fails a checksum (or, in the
	// checksums themselves, mismatches its block).
	for _, at := range []int{30, 64, 64 + 63, 128, 128 + 299, len(data) / 2, len(data) - 1} {
		b := bytes.Clone(data)
		b[at] ^= 0x10
		assert.ErrorIs(t, try(b, 16), ErrBadIndex, "byte %d flipped", at)
	}
	full := NewVectors(16)
	full.Set(0, []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	assert.ErrorContains(t, full.AdoptRows(data, nil), "already hold")
}

// TestAdoptRowsFromAPrivateMapping: rows adopted in place from a mapped
// file take Set and Remove (copy-on-write: the file keeps its bytes), and
// the mapping is released once the vectors are unreachable.
func TestAdoptRowsFromAPrivateMapping(t *testing.T) {
	v := matrixFixture(t, 64, 500)
	path := filepath.Join(t.TempDir(), "rows")
	require.NoError(t, os.WriteFile(path, writeRows(t, v), 0o644))
	f, err := os.Open(path)
	require.NoError(t, err)
	st, err := f.Stat()
	require.NoError(t, err)
	m, err := mapfile.Open(f, st.Size(), true)
	require.NoError(t, err)
	require.NoError(t, f.Close())

	released := make(chan struct{})
	got := NewVectors(64)
	require.NoError(t, got.AdoptRows(m.Bytes(), func() { close(released); m.Close() }))
	sameVectors(t, v, got)
	r := rand.New(rand.NewPCG(5, 5))
	for _, slot := range []int32{0, 3, 250, 499, 600} {
		vec := randomVector(r, 64)
		v.Set(slot, vec)
		got.Set(slot, vec)
	}
	v.Remove(10)
	got.Remove(10)
	sameVectors(t, v, got)
	onDisk, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, NewVectors(64).AdoptRows(onDisk, nil), "the file is as written")

	select {
	case <-released:
		t.Fatal("the mapping was released while the vectors were in use")
	default:
	}
	got = nil
	// A full collection (runtime.GC returns after the sweep) queues the
	// cleanup of what became unreachable; it then runs on the runtime's
	// cleanup goroutine. The timeout only guards against a hang.
	runtime.GC()
	select {
	case <-released:
	case <-time.After(30 * time.Second):
		t.Fatal("the mapping was not released after the vectors became unreachable and a GC ran")
	}
}
