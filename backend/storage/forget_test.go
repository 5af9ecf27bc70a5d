package storage

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestForgetKeepsWhatIsNamed: the texts no hash of named names go — files
// and the pack's records — and the rest read as before, from this Texts
// and from one opened after; what Unnamed counted is what Forget deleted.
func TestForgetKeepsWhatIsNamed(t *testing.T) {
	dir := t.TempDir()
	texts := NewTexts(dir, false)
	named := map[string]bool{}
	var gone []string
	for i, s := range packTexts(40) {
		h := Hash(s)
		if i%2 == 0 {
			_, err := texts.Write(h, s)
			require.NoError(t, err)
		} else {
			require.NoError(t, texts.pack.add(h, s))
		}
		if i%3 == 0 {
			named[h] = true
		} else {
			gone = append(gone, h)
		}
	}
	tmp := texts.Path(Hash(packTexts(40)[0])) + ".p1-2.tmp"
	require.NoError(t, os.WriteFile(tmp, []byte("x"), 0o644), "a temporary file is not a text")

	n, bytes, err := texts.Unnamed(named)
	require.NoError(t, err)
	assert.Equal(t, len(gone), n)
	assert.Positive(t, bytes)
	_, _, err = texts.Forget(named, n-1)
	require.ErrorIs(t, err, ErrMoreUnnamed, "more than expected: nothing goes")
	again, _, err := texts.Unnamed(named)
	require.NoError(t, err)
	require.Equal(t, n, again)
	fn, fbytes, err := texts.Forget(named, n)
	require.NoError(t, err)
	assert.Equal(t, n, fn)
	assert.Equal(t, bytes, fbytes)

	for _, x := range []*Texts{texts, NewTexts(dir, true)} {
		for i, s := range packTexts(40) {
			got, err := x.Read(Hash(s))
			if i%3 == 0 {
				require.NoError(t, err, i)
				assert.Equal(t, s, got)
			} else {
				assert.Error(t, err, "%d is gone", i)
			}
		}
		n, _, err := x.Unnamed(named)
		require.NoError(t, err)
		assert.Zero(t, n)
	}
	require.NoError(t, texts.pack.add(Hash("after"), "after"), "the pack takes texts after")
	got, err := texts.Read(Hash("after"))
	require.NoError(t, err)
	assert.Equal(t, "after", got)
	_, err = os.Stat(tmp)
	assert.NoError(t, err, "temporary files are SweepTemps'")

	_, _, err = NewTexts(dir, true).Forget(named, 0)
	assert.Error(t, err, "read-only")
	require.NoError(t, texts.Close())
}
