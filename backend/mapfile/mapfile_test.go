package mapfile

import (
	"bytes"
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
