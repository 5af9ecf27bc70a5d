package minilm

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFindReadsTheEnvironmentFirst(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(DirEnv, dir)
	_, err := Find()
	if !errors.Is(err, ErrWeightsMissing) {
		t.Fatalf("an empty folder: got %v, want ErrWeightsMissing", err)
	}
	if want := "$" + DirEnv + " is " + dir + ", which has no " + WeightsFile; !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q does not say %q", err, want)
	}
	placeWeights(t, dir)
	got, err := Find()
	if err != nil || got != dir {
		t.Fatalf("Find() = %q, %v; want %q", got, err, dir)
	}
}

func TestFindLooksAboveTheWorkingDirectory(t *testing.T) {
	t.Setenv(DirEnv, "")
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // no user-wide copy
	t.Setenv("HOME", t.TempDir())
	root := t.TempDir()
	model := filepath.Join(root, filepath.FromSlash(RepoDir))
	deep := filepath.Join(root, "backend", "embed")
	for _, d := range []string{model, deep} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(deep)
	_, err := Find()
	if exe, _ := os.Executable(); err == nil && !strings.HasPrefix(exe, root) {
		// The test binary's own folder may sit under a checkout that has
		// the weights; only a miss is checked then.
		t.Skip("the weights are above the test binary")
	}
	if !errors.Is(err, ErrWeightsMissing) || !strings.Contains(err.Error(), "bash scripts/minilm.sh") {
		t.Fatalf("no weights: got %v", err)
	}
	for _, f := range []string{ConfigFile, TokenizerFile, WeightsFile} {
		if err := os.WriteFile(filepath.Join(model, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Find()
	if err != nil || got != model {
		t.Fatalf("Find() = %q, %v; want %q", got, err, model)
	}
}

// placeWeights puts the three files Find looks for in dir.
func placeWeights(t *testing.T, dir string) {
	t.Helper()
	for _, f := range []string{ConfigFile, TokenizerFile, WeightsFile} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
