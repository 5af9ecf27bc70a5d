package watch

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestListRoundTripsAndReadsWhatADamagedOneHolds(t *testing.T) {
	dir := t.TempDir()
	folders, err := ReadList(dir)
	require.NoError(t, err)
	assert.Empty(t, folders, "no list: no folders")
	require.NoError(t, WriteList(dir, []string{"/home/ada/notes", "/home/ada/papers"}))
	folders, err = ReadList(dir)
	require.NoError(t, err)
	assert.Equal(t, []string{"/home/ada/notes", "/home/ada/papers"}, folders)

	for _, tc := range []struct {
		name, text string
		want       []string
		problem    string
	}{
		{"whole", `{"folders": ["/a", "/b"]}`, []string{"/a", "/b"}, ""},
		{"empty", `{"folders": []}`, nil, ""},
		{"cut short", `{"folders": ["/a", "/b", "/c`, []string{"/a", "/b"}, "is cut short: it ends after 28 bytes, inside the list"},
		{"cut after a comma", `{"folders": ["/a",`, []string{"/a"}, "is cut short"},
		{"garbage after", `{"folders": ["/a"]}}x`, []string{"/a"}, "is damaged: invalid character '}' after top-level value (at byte"},
		{"other keys first", `{"version": {"x": [1]}, "folders": ["/a", 7, "/b"]}`, []string{"/a", "/b"}, "is not a list of watched folders: it has a number where a path belongs"},
		{"a bare array", `["/a", "/b"]`, []string{"/a", "/b"}, `is not a list of watched folders: it has an array where an object, {"folders": [paths]} belongs`},
		{"one folder", `{"folders": "/a"}`, nil, "is not a list of watched folders: it has a string where a list of paths belongs"},
		{"not JSON", "\x00\x00\x00\x00", nil, "is damaged: invalid character"},
		{"nothing", "\n", nil, "is empty: it holds no list of watched folders"},
		{"relative and twice", `{"folders": ["notes", "/a", "/a/", "/b"]}`, []string{"/a", "/b"}, "names 1 folder by no absolute path, and 1 folder twice"},
	} {
		got, problem := ParseList([]byte(tc.text))
		assert.Equal(t, tc.want, got, tc.name)
		if tc.problem == "" {
			assert.Empty(t, problem, tc.name)
		} else {
			assert.Contains(t, problem, tc.problem, tc.name)
		}
	}

	require.NoError(t, os.WriteFile(filepath.Join(dir, ListFile), []byte(`{"folders": ["/a", "/b`), 0o644))
	folders, err = ReadList(dir)
	var le *ListError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, filepath.Join(dir, ListFile), le.File)
	assert.Equal(t, []string{"/a"}, folders, "what could be read, with the error")
}
