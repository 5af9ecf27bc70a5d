package storage

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func packTexts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("Summary %d: the budget loads what matters. ünïcödé %s", i, string(make([]byte, i%7)))
	}
	return out
}

// TestPackStoresAndReopens: texts read back from the same pack and from a
// reopened one; storing a text twice writes it once; a hash that is not
// SHA-256 is refused; a missing pack is empty, not an error.
func TestPackStoresAndReopens(t *testing.T) {
	path := filepath.Join(t.TempDir(), PackFile)
	p := &pack{path: path}
	_, ok, err := p.read(Hash("nothing yet"))
	require.NoError(t, err)
	assert.False(t, ok)
	_, err = os.Stat(path)
	assert.ErrorIs(t, err, os.ErrNotExist, "reading makes no file")

	texts := append(packTexts(50), "")
	for _, s := range texts {
		require.NoError(t, p.add(Hash(s), s))
	}
	st, err := os.Stat(path)
	require.NoError(t, err)
	require.NoError(t, p.add(Hash(texts[3]), texts[3]))
	st2, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, st.Size(), st2.Size(), "a text already stored is not written again")
	assert.ErrorContains(t, p.add("abc", "x"), "not a SHA-256 hash")
	require.NoError(t, p.close())

	for _, q := range []*pack{p, {path: path}} { // closed and read again; another reader
		requireInPack(t, q, texts...)
		require.NoError(t, q.close())
	}
}

// requireInPack fails unless p reads back every text.
func requireInPack(t *testing.T, p *pack, texts ...string) {
	t.Helper()
	for _, s := range texts {
		got, ok, err := p.read(Hash(s))
		require.NoError(t, err)
		require.True(t, ok, "%q is in the pack", s)
		require.Equal(t, s, got)
	}
}

// TestPackSurvivesATornOrDamagedTail: a record cut short (a crash in the
// middle of an append) or changed on disk ends the pack there: the texts
// before it read back, the ones from it on are missing (and remade when
// needed), and the next append cuts the file back and goes on.
func TestPackSurvivesATornOrDamagedTail(t *testing.T) {
	texts := packTexts(10)
	for _, damage := range []string{"torn", "flipped", "huge length"} {
		t.Run(damage, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), PackFile)
			p := &pack{path: path}
			for _, s := range texts {
				require.NoError(t, p.add(Hash(s), s))
			}
			eighth := p.at[Hash(texts[7])].off - packHeader // the 8th record's start
			require.NoError(t, p.close())
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			switch damage {
			case "torn":
				b = b[:len(b)-5]
			case "flipped":
				b[eighth+packHeader+2] ^= 0x20
			case "huge length":
				b[eighth+3] = 0xff
			}
			require.NoError(t, os.WriteFile(path, b, 0o644))

			q := &pack{path: path}
			lost := 7
			if damage == "torn" {
				lost = 9
			}
			for i, s := range texts {
				got, ok, err := q.read(Hash(s))
				require.NoError(t, err)
				if i < lost {
					require.True(t, ok, "text %d before the damage", i)
					assert.Equal(t, s, got)
				} else {
					assert.False(t, ok, "text %d from the damage on", i)
				}
			}
			more := "a summary made after the crash"
			require.NoError(t, q.add(Hash(more), more))
			require.NoError(t, q.add(Hash(texts[9]), texts[9])) // made again
			require.NoError(t, q.close())

			r := &pack{path: path} // after the repair
			requireInPack(t, r, append(texts[:lost:lost], more, texts[9])...)
			require.NoError(t, r.close())
		})
	}
}

// TestPackConcurrentReadsAndAppends: readers and one writer at once (run
// it with -race after changing pack.go).
func TestPackConcurrentReadsAndAppends(t *testing.T) {
	p := &pack{path: filepath.Join(t.TempDir(), PackFile)}
	defer p.close()
	texts := packTexts(300)
	for _, s := range texts[:100] {
		require.NoError(t, p.add(Hash(s), s))
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		for _, s := range texts[100:] {
			assert.NoError(t, p.add(Hash(s), s))
		}
	})
	for range 4 {
		wg.Go(func() {
			for _, s := range texts[:100] {
				got, ok, err := p.read(Hash(s))
				assert.NoError(t, err)
				assert.True(t, ok)
				assert.Equal(t, s, got)
			}
		})
	}
	wg.Wait()
	requireInPack(t, p, texts...)
}
