package offline

import (
	"context"
	"encoding/binary"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// smallInput is a made-up vocabulary of ten tokens, four of them distilled
// to vectors of eight dimensions.
func smallInput() BuildInput {
	vocab := []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "cat", "dog", "car", "##s", "bus", ""}
	vecs := []float32{
		1, 0.9, 0, 0, 0.1, 0, 0, 0.2, // cat
		0.9, 1, 0, 0, 0, 0.1, 0, 0.1, // dog
		0, 0, 1, 0.8, 0, 0, 0.1, 0, // car
		0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, // ##s
	}
	return BuildInput{
		ID: "offline/small", Source: "made up", Vocab: vocab, Unk: "[UNK]", Prefix: "##", MaxWordChars: 100,
		IDs: []int32{4, 5, 6, 7}, Vectors: vecs, Dims: 3, Weight: []float32{1, 1, 1, 0.1},
	}
}

func smallTable(t *testing.T) []byte {
	t.Helper()
	b, stats, err := Build(smallInput())
	require.NoError(t, err)
	assert.Equal(t, len(b), stats.Bytes)
	assert.Greater(t, stats.MeanQuantCosine, 0.999)
	assert.Greater(t, stats.Variance, 0.9)
	return b
}

func TestBuildRoundTrip(t *testing.T) {
	e, err := FromBytes(smallTable(t))
	require.NoError(t, err)
	assert.Equal(t, "offline/small", e.ID())
	assert.Equal(t, 3, e.Dim())
	assert.Equal(t, 10, e.Tokens())
	assert.Equal(t, "made up", e.Source())
	vs, err := e.Embed(context.Background(), []string{"cat", "Cats", "dog", "car", "bus"})
	require.NoError(t, err)
	for _, v := range vs {
		var ss float64
		for _, x := range v {
			ss += float64(x) * float64(x)
		}
		assert.InDelta(t, 1, ss, 1e-5)
	}
	assert.Greater(t, cosine(vs[0], vs[2]), cosine(vs[0], vs[3]), "cat is nearer dog than car")
	assert.Greater(t, cosine(vs[0], vs[1]), 0.9, "\"##s\" weighs little")
	assert.Equal(t, fallbackOf("bus", 3), vs[4], "a token without a row has no vector")
}

func TestBuildIsDeterministic(t *testing.T) {
	assert.Equal(t, smallTable(t), smallTable(t))
}

func TestBuildRejectsBadInput(t *testing.T) {
	for name, mutate := range map[string]func(*BuildInput){
		"no rows":             func(in *BuildInput) { in.IDs = nil },
		"ragged vectors":      func(in *BuildInput) { in.Vectors = in.Vectors[:len(in.Vectors)-1] },
		"too many dimensions": func(in *BuildInput) { in.Dims = 9 },
		"weights":             func(in *BuildInput) { in.Weight = in.Weight[:2] },
		"zero weight":         func(in *BuildInput) { in.Weight = []float32{1, 0, 1, 1} },
		"id out of range":     func(in *BuildInput) { in.IDs = []int32{4, 5, 6, 10} },
		"id twice":            func(in *BuildInput) { in.IDs = []int32{4, 5, 5, 7} },
		"no embedder ID":      func(in *BuildInput) { in.ID = "" },
		"no unknown token":    func(in *BuildInput) { in.Unk = "" },
	} {
		t.Run(name, func(t *testing.T) {
			in := smallInput()
			mutate(&in)
			_, _, err := Build(in)
			assert.Error(t, err)
		})
	}
}

// withCRC replaces b's trailing checksum with the right one for its body.
func withCRC(b []byte) []byte {
	out := append([]byte(nil), b...)
	binary.LittleEndian.PutUint32(out[len(out)-4:], crc32.ChecksumIEEE(out[:len(out)-4]))
	return out
}

func TestDamagedTablesAreRejectedWithTheirFileName(t *testing.T) {
	good := smallTable(t)
	versionAt := len(tableMagic)
	weightsAt := len(good) - 4 - 10*3 - 2*4*10 // before the rows, the scales and the weights
	cases := map[string]struct {
		b    []byte
		want string
	}{
		"empty":      {nil, "too short"},
		"bad magic":  {withCRC(append([]byte("GLOVE\x00\x00\x00"), good[8:]...)), "bad magic"},
		"truncated":  {good[:len(good)-100], "checksum mismatch"},
		"bit flip":   {func() []byte { b := append([]byte(nil), good...); b[len(b)/2] ^= 1; return b }(), "checksum mismatch"},
		"version":    {withCRC(func() []byte { b := append([]byte(nil), good...); b[versionAt] = 9; return b }()), "version 9, this build reads version 1"},
		"short body": {withCRC(append(append([]byte(nil), good[:len(good)-40]...), 0, 0, 0, 0)), "truncated"},
		"trailing":   {withCRC(append(append([]byte(nil), good[:len(good)-4]...), 1, 2, 3, 4, 0, 0, 0, 0)), "4 unexpected trailing bytes"},
		"NaN weight": {withCRC(func() []byte {
			b := append([]byte(nil), good...)
			binary.LittleEndian.PutUint32(b[weightsAt+4*4:], math.Float32bits(float32(math.NaN())))
			return b
		}()), `token "cat" has weight NaN`},
	}
	dir := t.TempDir()
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := FromBytes(c.b)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			assert.Contains(t, err.Error(), "bash scripts/embeddings.sh", "says how to rebuild it")
			path := filepath.Join(dir, "damaged.bin")
			require.NoError(t, os.WriteFile(path, c.b, 0o644))
			_, err = FromFile(path)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "offline embedding table "+path+": "+c.want)
			var te *TableError
			assert.ErrorAs(t, err, &te)
		})
	}
}

func TestFromFileAndReader(t *testing.T) {
	b := smallTable(t)
	path := filepath.Join(t.TempDir(), "t.bin")
	require.NoError(t, os.WriteFile(path, b, 0o644))
	e, err := FromFile(path)
	require.NoError(t, err)
	assert.Equal(t, "offline/small", e.ID())
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	e, err = FromReader(f)
	require.NoError(t, err)
	assert.Equal(t, 3, e.Dim())
	_, err = FromFile(filepath.Join(t.TempDir(), "missing.bin"))
	assert.ErrorIs(t, err, ErrTableMissing)
	assert.ErrorContains(t, err, "missing.bin")
}
