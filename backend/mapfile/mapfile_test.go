package mapfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestMapReadsTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	want := bytes.Repeat([]byte("0123456789abcdef"), 1000)
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := Open(f, 100, false)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(m.Bytes(), want[:100]) {
		t.Fatalf("first 100 bytes: %q", m.Bytes())
	}
	if runtime.GOOS != "js" && runtime.GOOS != "windows" && !m.Mapped() {
		t.Error("not mapped on a Unix")
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if m.Bytes() != nil {
		t.Error("bytes kept after Close")
	}
	empty, err := Open(f, 0, false)
	if err != nil || len(empty.Bytes()) != 0 || empty.Close() != nil {
		t.Fatalf("empty map: %v", err)
	}
	if _, err := Open(f, -1, false); err == nil {
		t.Error("negative size accepted")
	}
}

func TestPrivateMapWritesStayInMemory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	want := bytes.Repeat([]byte{7}, 3*4096)
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path) // read-only: a private map may still be written
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := Open(f, int64(len(want)), true)
	if err != nil {
		t.Fatal(err)
	}
	m.Bytes()[5000] = 9
	if m.Bytes()[5000] != 9 {
		t.Fatal("write not seen")
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("a private map's write reached the file")
	}
}

// ReadFile reads what os.ReadFile reads, and fails as it does.
func TestReadFileAsOSReadFile(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{1, 7, 4096, 1 << 20} {
		p := filepath.Join(dir, fmt.Sprint("f", size))
		want := make([]byte, size)
		for i := range want {
			want[i] = byte(i*7 + size)
		}
		if err := os.WriteFile(p, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(p)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("size %d: %d bytes, %v", size, len(got), err)
		}
	}
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadFile(empty); err != nil || len(got) != 0 {
		t.Fatalf("empty: %q, %v", got, err)
	}
	missing := filepath.Join(dir, "missing")
	_, err := ReadFile(missing)
	var pe *fs.PathError
	if !errors.Is(err, fs.ErrNotExist) || !errors.As(err, &pe) || pe.Path != missing {
		t.Fatalf("missing file: %v", err)
	}
	if _, err := ReadFile(dir); err == nil {
		t.Fatal("a folder was read")
	}
}
