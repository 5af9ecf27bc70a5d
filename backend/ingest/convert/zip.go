package convert

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// MaxUnpackedBytes is the most an archive (a .docx, an .epub) may unpack
// to, all its entries together. Office files and e-books are a few
// megabytes; a zip that claims more is refused before anything is read
// (a zip bomb), and reading stops there if the sizes it claims are false.
const MaxUnpackedBytes = 256 << 20

// archive is a zip file read from memory, with a budget of bytes left to
// unpack.
type archive struct {
	files  map[string]*zip.File
	folded map[string]*zip.File // by lower-case name, for producers that change case
	budget int64
}

// openZip opens data as a zip archive; kind names what it should be
// ("a .docx") for the messages.
func openZip(data []byte, kind string) (*archive, error) {
	if len(data) == 0 {
		return nil, bad("is empty")
	}
	r, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		if bytes.HasPrefix(data, []byte("PK\x03\x04")) {
			return nil, badWrap(err, "is a damaged or truncated zip archive (%s is one)", kind)
		}
		return nil, badWrap(err, "is not a zip archive (%s must be one)", kind)
	}
	a := &archive{files: map[string]*zip.File{}, folded: map[string]*zip.File{}, budget: MaxUnpackedBytes}
	var total uint64
	for _, f := range r.File {
		total += f.UncompressedSize64
		if total > MaxUnpackedBytes {
			return nil, bad("would unpack to more than %d MiB, more than Loom reads from one archive (a zip bomb?)", MaxUnpackedBytes>>20)
		}
		name := strings.TrimPrefix(f.Name, "/")
		if _, dup := a.files[name]; !dup {
			a.files[name] = f
		}
		if _, dup := a.folded[strings.ToLower(name)]; !dup {
			a.folded[strings.ToLower(name)] = f
		}
	}
	return a, nil
}

// file finds an entry by name, ignoring case when no entry has the name
// exactly.
func (a *archive) file(name string) *zip.File {
	if f, ok := a.files[name]; ok {
		return f
	}
	return a.folded[strings.ToLower(name)]
}

// has reports whether the archive has the entry.
func (a *archive) has(name string) bool { return a.file(name) != nil }

// open opens an entry for reading; the bytes read count against the
// archive's budget.
func (a *archive) open(name string) (io.ReadCloser, error) {
	f := a.file(name)
	if f == nil {
		return nil, bad("has no %s", name)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, badWrap(err, "has an entry %s that cannot be unpacked", name)
	}
	return &budgeted{rc: rc, a: a, name: name}, nil
}

// read unpacks a whole entry.
func (a *archive) read(name string) ([]byte, error) {
	rc, err := a.open(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// budgeted reads an entry until the archive's budget is spent.
type budgeted struct {
	rc   io.ReadCloser
	a    *archive
	name string
}

func (b *budgeted) Read(p []byte) (int, error) {
	if b.a.budget <= 0 {
		return 0, bad("unpacks to more than %d MiB (a zip bomb?)", MaxUnpackedBytes>>20)
	}
	if int64(len(p)) > b.a.budget {
		p = p[:b.a.budget]
	}
	n, err := b.rc.Read(p)
	b.a.budget -= int64(n)
	if err != nil && err != io.EOF {
		return n, badWrap(err, "has an entry %s that cannot be unpacked", b.name)
	}
	return n, err
}

func (b *budgeted) Close() error { return b.rc.Close() }

// describeEntries lists a few entry names, for a message about an archive
// that lacks what it should have.
func (a *archive) describeEntries() string {
	var names []string
	for name := range a.files {
		names = append(names, name)
	}
	if len(names) == 0 {
		return "it is empty"
	}
	sort.Strings(names)
	if len(names) > 5 {
		return fmt.Sprintf("it has %d entries", len(names))
	}
	return "it has " + strings.Join(names, ", ")
}
