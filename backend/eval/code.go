package eval

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// Code corpora are evaluated at a commit of a git repository: the labels
// name definitions as they were then (PATH#NAME), so the tree is taken out
// of git — never the working copy, which moves on.

// CodeCorpus says which tree of a repository a set of questions is about.
type CodeCorpus struct {
	// Commit is the commit the questions were written against.
	Commit string `json:"commit"`
	// Include and Exclude are the files to take, as globs of slash paths
	// from the repository's root ("backend/**/*.go"); a file is taken when
	// it matches an Include and no Exclude.
	Include []string `json:"include"`
	Exclude []string `json:"exclude"`
}

// LoadCodeCorpus reads a corpus.json (a bug set's has no commit: each
// case has its own).
func LoadCodeCorpus(file string, needCommit bool) (CodeCorpus, error) {
	var c CodeCorpus
	b, err := os.ReadFile(file)
	if err != nil {
		return c, fmt.Errorf("read code corpus: %w", err)
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, fmt.Errorf("%s: not a code corpus (commit, include, exclude): %w", file, err)
	}
	if needCommit && c.Commit == "" || len(c.Include) == 0 {
		return c, fmt.Errorf("%s: a code corpus needs a commit and at least one include glob", file)
	}
	return c, nil
}

// Matches reports whether a file of the repository is in the corpus.
func (c CodeCorpus) Matches(file string) bool { return c.matcher()(file) }

// matcher is Matches with the globs compiled once.
func (c CodeCorpus) matcher() func(string) bool {
	compile := func(globs []string) []*regexp.Regexp {
		out := make([]*regexp.Regexp, 0, len(globs))
		for _, g := range globs {
			if re, err := globRegexp(g); err == nil {
				out = append(out, re)
			}
		}
		return out
	}
	include, exclude := compile(c.Include), compile(c.Exclude)
	matchAny := func(res []*regexp.Regexp, file string) bool {
		for _, re := range res {
			if re.MatchString(file) {
				return true
			}
		}
		return false
	}
	return func(file string) bool { return matchAny(include, file) && !matchAny(exclude, file) }
}

// globRegexp is a glob of slash paths, where ** spans folders, as a
// regular expression.
func globRegexp(glob string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(glob); i++ {
		switch c := glob[i]; {
		case strings.HasPrefix(glob[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case strings.HasPrefix(glob[i:], "**"):
			b.WriteString(".*")
			i++
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}

// RepoRoot is the root of the git repository holding dir.
func RepoRoot(ctx context.Context, dir string) (string, error) {
	out, err := gitOut(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", fmt.Errorf("%s is not in a git repository with its history (a code corpus is read from git): %w", dir, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// Checkout writes the corpus's files as they were at commit into dir,
// making dir hold exactly them: files of an earlier checkout that the
// commit lacks are deleted, files that are the same are left untouched (so
// a re-ingest of dir reads only what changed).
func Checkout(ctx context.Context, repo, commit string, c CodeCorpus, dir string) (files int, err error) {
	out, err := gitOut(ctx, repo, "archive", "--format=tar", commit)
	if err != nil {
		return 0, fmt.Errorf("take commit %s out of %s: %w (a shallow clone lacks the history the code corpora need: fetch it with git fetch --unshallow)", short(commit), repo, err)
	}
	want := map[string]bool{}
	matches := c.matcher()
	tr := tar.NewReader(bytes.NewReader(out))
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return files, fmt.Errorf("read commit %s: %w", short(commit), err)
		}
		if h.Typeflag != tar.TypeReg || !matches(h.Name) {
			continue
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return files, err
		}
		want[h.Name] = true
		files++
		dst := filepath.Join(dir, filepath.FromSlash(h.Name))
		if old, err := os.ReadFile(dst); err == nil && bytes.Equal(old, data) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return files, err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return files, err
		}
	}
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, rerr := filepath.Rel(dir, p)
		if rerr == nil && !want[filepath.ToSlash(rel)] {
			return os.Remove(p)
		}
		return nil
	})
	return files, err
}

func short(commit string) string { return commit[:min(len(commit), 12)] }

func gitOut(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, fmt.Errorf("git %s: %s", args[0], msg)
		}
		return nil, fmt.Errorf("git %s: %w", args[0], err)
	}
	return out, nil
}

// BugCase is one bug-localisation case: the fix's commit message as the
// report, the definitions the fix touched (as they were at its parent) as
// the answer.
type BugCase struct {
	ID       string   `json:"id"`
	Commit   string   `json:"commit"`
	Parent   string   `json:"parent"`
	Query    string   `json:"query"`
	Relevant []string `json:"relevant"`
	Files    []string `json:"files"`
}

// LoadBugCases reads cases.jsonl.
func LoadBugCases(file string) ([]BugCase, error) {
	var out []BugCase
	err := readJSONLines(file, "read bug cases", func(line int, text []byte) error {
		var c BugCase
		if err := json.Unmarshal(text, &c); err != nil {
			return fmt.Errorf("%s:%d: not a bug case: %w", file, line, err)
		}
		if c.Parent == "" || c.Query == "" || len(c.Relevant) == 0 || len(c.Files) == 0 {
			return fmt.Errorf("%s:%d: a bug case needs parent, query, relevant and files", file, line)
		}
		out = append(out, c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Query is the case as a labelled query.
func (c BugCase) AsQuery() Query {
	q := Query{ID: c.ID, Text: c.Query, Relevant: map[string]int{}}
	for _, r := range c.Relevant {
		q.Relevant[r] = 1
	}
	return q
}

// Acc reports whether any of want is among the first k distinct entries
// of ranked.
func Acc(ranked []string, want []string, k int) bool {
	wanted := map[string]bool{}
	for _, w := range want {
		wanted[w] = true
	}
	seen := map[string]bool{}
	for _, r := range ranked {
		if seen[r] {
			continue
		}
		seen[r] = true
		if wanted[r] {
			return true
		}
		if len(seen) == k {
			break
		}
	}
	return false
}

// FileOf is the file of a reference ("a/b.go#F" → "a/b.go").
func FileOf(ref string) string {
	if i := strings.IndexByte(ref, '#'); i >= 0 {
		return ref[:i]
	}
	return ref
}

// isDefinition reports whether a reference names a definition (not a
// file's own node).
func isDefinition(ref string) bool { return strings.Contains(ref, "#") }
