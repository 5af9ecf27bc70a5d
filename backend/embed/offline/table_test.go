package offline

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// smallTable builds a four-word, four-dimension table.
func smallTable(t *testing.T) []byte {
	t.Helper()
	b, stats, err := BuildTable(TableInput{
		Source: "test vectors",
		Words:  []string{"the", "cat", "dog", "well-known"},
		Vectors: [][]float32{
			{1, 1, 1, 1},
			{0.9, -0.2, 0.1, 0},
			{0.8, -0.1, 0.3, 0.1},
			{0, 0, -0.5, 1},
		},
		Prob:      []float32{0.05, 0.001, 0.001, 0.0001},
		SIFA:      1e-3,
		Sentences: 500,
	})
	require.NoError(t, err)
	assert.Equal(t, len(b), stats.Bytes)
	assert.Greater(t, stats.MeanQuantCosine, 0.9999)
	assert.InDelta(t, 1, cosine(stats.Common, stats.Common), 1e-5, "the common component is a unit vector")
	return b
}

func TestBuildTableRoundTrip(t *testing.T) {
	e, err := FromBytes(smallTable(t))
	require.NoError(t, err)
	assert.Equal(t, 4, e.Dim())
	assert.Equal(t, 4, e.Words())
	assert.Equal(t, "test vectors", e.Source())
	assert.True(t, e.Known("well-known"))
	assert.False(t, e.Known("bird"))
	assert.Equal(t, ID, e.ID())
}

func TestBuildTableIsDeterministic(t *testing.T) {
	assert.Equal(t, smallTable(t), smallTable(t))
}

func TestBuildTableRejectsBadInput(t *testing.T) {
	valid := func() TableInput {
		return TableInput{Words: []string{"a", "b"}, Vectors: [][]float32{{1, 0}, {0, 1}}, Prob: []float32{0.5, 0.5}, SIFA: 1e-3}
	}
	cases := []struct {
		name   string
		mutate func(*TableInput)
		want   string
	}{
		{"no words", func(in *TableInput) { *in = TableInput{SIFA: 1e-3} }, "no words"},
		{"length mismatch", func(in *TableInput) { in.Prob = in.Prob[:1] }, "2 words, 2 vectors, 1 probabilities"},
		{"bad a", func(in *TableInput) { in.SIFA = 0 }, "SIF constant"},
		{"duplicate word", func(in *TableInput) { in.Words[1] = "a" }, "appears twice"},
		{"ragged vectors", func(in *TableInput) { in.Vectors[1] = []float32{1} }, "has 1 dimensions"},
		{"zero probability", func(in *TableInput) { in.Prob[0] = 0 }, "probability"},
		{"NaN component", func(in *TableInput) { in.Vectors[0][0] = float32(nan()) }, "non-finite"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := valid()
			tc.mutate(&in)
			_, _, err := BuildTable(in)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestFromBytesRejectsDamagedTables(t *testing.T) {
	good := smallTable(t)
	withCRC := func(b []byte) []byte { // re-seal after editing the body
		body := b[:len(b)-4]
		return binary.LittleEndian.AppendUint32(bytes.Clone(body), crc32IEEE(body))
	}
	cases := []struct {
		name  string
		table func() []byte
		want  string
	}{
		{"empty", func() []byte { return nil }, "too short"},
		{"not a table", func() []byte { return []byte("{\"words\": [\"the\"]}") }, "bad magic"},
		{"truncated", func() []byte { return good[:len(good)-10] }, "checksum mismatch"},
		{"flipped bit", func() []byte { b := bytes.Clone(good); b[len(b)-20] ^= 1; return b }, "checksum mismatch"},
		{"future version", func() []byte {
			b := bytes.Clone(good)
			binary.LittleEndian.PutUint32(b[8:], tableVersion+1)
			return withCRC(b)
		}, "version 2"},
		{"body cut short", func() []byte { return withCRC(append(bytes.Clone(good[:60]), 0, 0, 0, 0)) }, "truncated"},
		{"trailing bytes", func() []byte {
			b := bytes.Clone(good[:len(good)-4])
			return withCRC(append(b, 1, 2, 3, 0, 0, 0, 0))
		}, "trailing bytes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FromBytes(tc.table())
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), "offline embedding table")
		})
	}
}

func TestFromFileAndReader(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, TableFile)
	require.NoError(t, os.WriteFile(path, smallTable(t), 0o644))

	e, err := FromFile(path)
	require.NoError(t, err)
	assert.Equal(t, 4, e.Dim())

	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	e, err = FromReader(f)
	require.NoError(t, err)
	assert.Equal(t, 4, e.Words())

	_, err = FromFile(filepath.Join(dir, "missing.bin"))
	require.ErrorIs(t, err, ErrTableMissing)
	assert.Contains(t, err.Error(), "run `bash scripts/embeddings.sh`")
}

func nan() float64 { return math.NaN() }

func crc32IEEE(b []byte) uint32 { return crc32.ChecksumIEEE(b) }
