package watch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/loomwork/loom/backend/storage"
)

// ListFile is the desktop app's list of watched folders, in the workspace's
// folder: {"folders": ["/home/me/notes", …]}, absolute paths of this
// machine. It is not part of a workspace file (export and import carry the
// graph, not the paths of the machine it was made on); a repair keeps it,
// mended when it is damaged.
const ListFile = "watched.json"

type list struct {
	Folders []string `json:"folders"`
}

// ListError is a list of watched folders that cannot be read whole.
type ListError struct {
	File    string
	Problem string
}

func (e *ListError) Error() string { return e.File + " " + e.Problem }

// ReadList reads the workspace's list of watched folders (none when there
// is no list). A damaged list is a *ListError, returned with the folders
// that could be read from it; an unreadable one another error.
func ReadList(dir string) ([]string, error) {
	path := filepath.Join(dir, ListFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	folders, problem := ParseList(b)
	if problem != "" {
		return folders, &ListError{File: path, Problem: problem}
	}
	return folders, nil
}

// ParseList reads a list of watched folders. When it is damaged (not
// JSON, not of the list's shape, cut short) problem says how, and folders
// are what could be read of it: the folders named before the damage.
// Entries that are no absolute paths are left out, and a folder named
// twice is kept once; those are problems too.
func ParseList(b []byte) (folders []string, problem string) {
	var l list
	err := json.Unmarshal(b, &l)
	if err == nil {
		return clean(l.Folders)
	}
	var syntax *json.SyntaxError
	var shape *json.UnmarshalTypeError
	switch {
	case len(bytes.TrimSpace(b)) == 0:
		problem = "is empty: it holds no list of watched folders"
	case errors.As(err, &syntax) && syntax.Offset >= int64(len(b)):
		problem = fmt.Sprintf("is cut short: it ends after %d bytes, inside the list", len(b))
	case errors.As(err, &syntax):
		problem = fmt.Sprintf("is damaged: %v (at byte %d of %d)", err, syntax.Offset, len(b))
	case errors.As(err, &shape):
		want := "a path"
		switch shape.Type.Kind() {
		case reflect.Slice:
			want = "a list of paths"
		case reflect.Struct:
			want = `an object, {"folders": [paths]}`
		}
		got := "a " + shape.Value
		if shape.Value != "" && strings.ContainsRune("aeiou", rune(shape.Value[0])) {
			got = "an " + shape.Value
		}
		problem = fmt.Sprintf("is not a list of watched folders: it has %s where %s belongs", got, want)
	default:
		problem = "is damaged: " + err.Error()
	}
	read, _ := clean(salvage(b))
	return read, problem
}

// salvage reads the strings of the list's folders array, token by token,
// up to the damage; a bare array of strings is taken too.
func salvage(b []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(b))
	paths := func() []string { // the strings of an array whose [ was read
		var out []string
		for {
			tok, err := dec.Token()
			if _, nested := tok.(json.Delim); err != nil || nested {
				return out
			}
			if s, ok := tok.(string); ok {
				out = append(out, s)
			}
		}
	}
	tok, err := dec.Token()
	if err != nil {
		return nil
	}
	switch tok {
	case json.Delim('['):
		return paths()
	case json.Delim('{'):
		for {
			key, err := dec.Token()
			if err != nil {
				return nil
			}
			if key == "folders" {
				if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
					return nil
				}
				return paths()
			}
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil
			}
		}
	}
	return nil
}

// clean keeps the absolute paths, each once, and says what it left out.
func clean(in []string) ([]string, string) {
	var out []string
	seen := map[string]bool{}
	relative, twice := 0, 0
	for _, f := range in {
		switch {
		case !filepath.IsAbs(f):
			relative++
		case seen[filepath.Clean(f)]:
			twice++
		default:
			seen[filepath.Clean(f)] = true
			out = append(out, filepath.Clean(f))
		}
	}
	var problem string
	switch {
	case relative > 0 && twice > 0:
		problem = fmt.Sprintf("names %s by no absolute path, and %s twice", folders(relative), folders(twice))
	case relative > 0:
		problem = fmt.Sprintf("names %s by no absolute path", folders(relative))
	case twice > 0:
		problem = fmt.Sprintf("names %s twice", folders(twice))
	}
	return out, problem
}

func folders(n int) string {
	if n == 1 {
		return "1 folder"
	}
	return fmt.Sprintf("%d folders", n)
}

// WriteList writes the workspace's list of watched folders (through a
// temporary file: a crash leaves the old list or the new one).
func WriteList(dir string, folders []string) error {
	b, err := json.MarshalIndent(list{Folders: append([]string{}, folders...)}, "", "  ")
	if err != nil {
		return err
	}
	return storage.WriteFileAtomic(filepath.Join(dir, ListFile), append(b, '\n'))
}
