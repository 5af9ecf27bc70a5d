package search

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// churnedKeyword builds an index that has been through replacements and
// removals, so it holds dead postings and freed term ids.
func churnedKeyword(r *rand.Rand) *Keyword {
	k := NewKeyword(BM25{K1: 1.2, B: 0.75})
	for slot := range int32(400) {
		k.Set(slot, randomTerms(r, 40))
	}
	for slot := int32(0); slot < 400; slot += 3 {
		k.Remove(slot)
	}
	for slot := int32(1); slot < 400; slot += 5 {
		k.Set(slot, randomTerms(r, 25))
	}
	k.Set(450, randomTerms(r, 10)) // a gap of absent slots
	return k
}

func randomTerms(r *rand.Rand, n int) []string {
	terms := make([]string, n)
	for i := range terms {
		terms[i] = fmt.Sprint("t", r.IntN(500))
	}
	return terms
}

func TestKeywordMarshalRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	k := churnedKeyword(r)
	data, err := k.MarshalBinary()
	require.NoError(t, err)

	var decoded Keyword
	require.NoError(t, decoded.UnmarshalBinary(data))
	assert.Equal(t, k.Params(), decoded.Params())
	assert.Equal(t, k.Len(), decoded.Len())
	assert.Equal(t, k.Slots(), decoded.Slots())
	for range 50 {
		query := randomTerms(r, 1+r.IntN(6))
		require.Equal(t, k.Search(query, 20, nil), decoded.Search(query, 20, nil), "query %v", query)
		want, got := make([]float32, k.Slots()), make([]float32, k.Slots())
		require.Equal(t, k.ScoreAll(query, want), decoded.ScoreAll(query, got))
		require.Equal(t, want, got)
	}

	again, err := decoded.MarshalBinary()
	require.NoError(t, err)
	assert.Equal(t, data, again, "the encoding depends only on the live documents")

	// The decoded index keeps working as a writable index.
	decoded.Set(3, []string{"t1", "fresh"})
	k.Set(3, []string{"t1", "fresh"})
	assert.Equal(t, k.Search([]string{"t1", "fresh"}, 10, nil), decoded.Search([]string{"t1", "fresh"}, 10, nil))
}

// alignedCopy returns data in a buffer that starts 8-aligned, as the
// search cache reads it.
func alignedCopy(data []byte) []byte {
	words := make([]uint64, (len(data)+7)/8)
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), len(words)*8)[:len(data)]
	copy(b, data)
	return b
}

// TestKeywordDecodedStaysWritable churns a decoded index (shared and
// copied) the same way as the original: every search and the re-encoding
// must agree, through compactions, terms of the sorted base losing all
// their postings and coming back, and new terms.
func TestKeywordDecodedStaysWritable(t *testing.T) {
	for _, shared := range []bool{false, true} {
		t.Run(fmt.Sprint("shared=", shared), func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, 8))
			k := churnedKeyword(r)
			data, err := k.MarshalBinary()
			require.NoError(t, err)
			var decoded Keyword
			if shared {
				buf := alignedCopy(data)
				require.NoError(t, decoded.UnmarshalShared(buf))
				require.NotNil(t, decoded.fz)
				assert.Same(t, &buf[len(buf)-4-8*decoded.totalPostings], (*byte)(unsafe.Pointer(&decoded.fz.arena[0])),
					"the postings are used in place")
			} else {
				require.NoError(t, decoded.UnmarshalBinary(data))
			}
			require.NotNil(t, decoded.fz, "frozen until the first write")
			for range 20 { // searches of the frozen form
				query := randomTerms(r, 5)
				require.Equal(t, k.Search(query, 15, nil), decoded.Search(query, 15, nil))
			}
			w := rand.New(rand.NewPCG(1, 2))
			for step := range 600 {
				slot := int32(w.IntN(460))
				switch {
				case step%3 == 0:
					k.Remove(slot)
					decoded.Remove(slot)
				case step%7 == 0:
					terms := []string{fmt.Sprint("new", w.IntN(50)), fmt.Sprint("t", w.IntN(500))}
					k.Set(slot, terms)
					decoded.Set(slot, terms)
				default:
					terms := randomTerms(w, 1+w.IntN(30))
					k.Set(slot, terms)
					decoded.Set(slot, terms)
				}
				if step == 0 {
					require.Nil(t, decoded.fz, "thawed by the first write")
				}
				if step%50 == 0 {
					query := append(randomTerms(w, 4), fmt.Sprint("new", w.IntN(50)))
					require.Equal(t, k.Search(query, 15, nil), decoded.Search(query, 15, nil), "step %d, query %v", step, query)
				}
			}
			want, err := k.MarshalBinary()
			require.NoError(t, err)
			got, err := decoded.MarshalBinary()
			require.NoError(t, err)
			assert.Equal(t, want, got)
		})
	}
}

func TestKeywordUnmarshalRejectsFlippedBytes(t *testing.T) {
	data, err := churnedKeyword(rand.New(rand.NewPCG(3, 4))).MarshalBinary()
	require.NoError(t, err)
	for i := 0; i < len(data); i += 1 + i/64 {
		bad := bytes.Clone(data)
		bad[i] ^= 0x10
		require.ErrorIs(t, new(Keyword).UnmarshalBinary(bad), ErrBadIndex, "byte %d changed", i)
	}
	// A file that another writer got wrong but checksummed is still
	// refused: terms out of order would break the binary search.
	k := NewKeyword(DefaultBM25)
	k.Set(0, []string{"ab", "aa"})
	data, err = k.MarshalBinary()
	require.NoError(t, err)
	i := bytes.Index(data, []byte("aaab"))
	require.Positive(t, i)
	copy(data[i:], "abaa")
	binary.LittleEndian.PutUint32(data[len(data)-4:], crc32.Checksum(data[:len(data)-4], castagnoli))
	assert.ErrorIs(t, new(Keyword).UnmarshalBinary(data), ErrBadIndex)
}

func TestVectorsMarshalRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	v := NewVectors(17)
	for slot := range int32(301) {
		v.Set(slot, randomVector(r, 17))
	}
	v.Remove(0)
	v.Remove(150)
	v.Remove(300) // the last slot absent: the bitmap must still cover it

	data, err := v.MarshalBinary()
	require.NoError(t, err)
	var decoded Vectors
	require.NoError(t, decoded.UnmarshalBinary(data))
	assert.Equal(t, v.Dim(), decoded.Dim())
	assert.Equal(t, v.Len(), decoded.Len())
	assert.Equal(t, v.Slots(), decoded.Slots())
	for slot := range int32(301) {
		require.Equal(t, v.Row(slot), decoded.Row(slot), "slot %d bit for bit", slot)
	}
	q := randomVector(r, 17)
	assert.Equal(t, v.Search(q, 30, nil), decoded.Search(q, 30, nil))
}

func TestUnmarshalRejectsBadData(t *testing.T) {
	small := budgetCorpus()
	small.Remove(1)
	small.Set(6, []string{"late", "budget"})
	keywordData, err := small.MarshalBinary()
	require.NoError(t, err)
	v := NewVectors(4)
	v.Set(0, []float32{1, 2, 3, 4})
	v.Set(9, []float32{4, 3, 2, 1})
	vectorData, err := v.MarshalBinary()
	require.NoError(t, err)

	for _, tt := range []struct {
		name      string
		data      []byte
		unmarshal func([]byte) error
	}{
		{"keyword", keywordData, new(Keyword).UnmarshalBinary},
		{"vectors", vectorData, new(Vectors).UnmarshalBinary},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for n := range len(tt.data) {
				assert.ErrorIs(t, tt.unmarshal(tt.data[:n]), ErrBadIndex, "truncated to %d bytes", n)
			}
			assert.ErrorIs(t, tt.unmarshal(append(tt.data[:len(tt.data):len(tt.data)], 0)), ErrBadIndex, "trailing byte")
			assert.ErrorIs(t, tt.unmarshal([]byte("LOOMXXXX\x01")), ErrBadIndex, "other magic")
		})
	}

	k := budgetCorpus()
	before := k.Search([]string{"budget"}, 5, nil)
	require.Error(t, k.UnmarshalBinary(keywordData[:len(keywordData)-1]))
	assert.Equal(t, before, k.Search([]string{"budget"}, 5, nil), "a failed unmarshal leaves the index as it was")
}

func FuzzKeywordUnmarshal(f *testing.F) {
	data, _ := budgetCorpus().MarshalBinary()
	f.Add(data)
	f.Fuzz(func(t *testing.T, data []byte) {
		var k Keyword
		if k.UnmarshalBinary(data) != nil {
			return
		}
		// Whatever decodes must search and re-encode without panicking.
		k.Search([]string{"budget", "plan"}, 5, nil)
		_, err := k.MarshalBinary()
		require.NoError(t, err)
	})
}

func FuzzVectorsUnmarshal(f *testing.F) {
	v := NewVectors(2)
	v.Set(1, []float32{1, 1})
	data, _ := v.MarshalBinary()
	f.Add(data)
	f.Fuzz(func(t *testing.T, data []byte) {
		var v Vectors
		if v.UnmarshalBinary(data) != nil {
			return
		}
		v.Search(make([]float32, v.Dim()), 5, nil)
	})
}
