// Command mkbugcases derives bug-localisation cases from Loom's own git
// history (testdata/eval/loom-bugs). For each fix commit it prints one JSON
// line:
//
//	{"id": "bug-01", "commit": FIX, "parent": PARENT, "query": MESSAGE,
//	 "relevant": ["PATH#NAME", ...], "files": ["PATH", ...]}
//
// query is the fix's commit message (subject and body, as written); it plays
// the bug report. files are the non-test Go files in the corpus folders
// (backend/, bind/, cmd/, graphdb/; not *_test.go, not under testdata/) that
// the fix changed and that existed at the parent. relevant are the top-level
// definitions of those files, as they were at the parent, whose line range
// (doc comment included) overlaps a line the diff changed or deleted on the
// parent side; for a pure insertion, the definition that encloses the
// insertion point. Definitions the fix added do not count: they did not exist
// at the parent, where the case's index is built.
//
// Definitions are named as in testdata/eval/loom-code/README.md: a function
// by its name, a method as Recv.Method (the receiver's base type, without *
// or type parameters), each type spec by its name, and a top-level const or
// var declaration (one GenDecl) by its first name; the second definition of
// a name in one file is NAME-2, the third NAME-3.
//
// Usage:
//
//	go run ./tools/mkbugcases -commits testdata/eval/loom-bugs/commits.txt > testdata/eval/loom-bugs/cases.jsonl
//	go run ./tools/mkbugcases SHA...
//
// The commits file holds one sha a line; anything after '#' is a comment.
// A case whose relevant set comes out empty or larger than -max (8) is
// dropped with a note on stderr, as is a merge commit.
//
// Two more modes help to write and check labels:
//
//	go run ./tools/mkbugcases -defs -rev REV PATH...    # list a file's definitions and line ranges
//	go run ./tools/mkbugcases -check FILE.jsonl -rev REV # every label in FILE resolves at REV
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/loomwork/loom/backend/ingest/code"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("mkbugcases: ")
	commitsFile := flag.String("commits", "", "file with one fix commit a line (# starts a comment)")
	maxRel := flag.Int("max", 8, "drop a case with more relevant definitions than this")
	defs := flag.Bool("defs", false, "list the definitions of the files named as arguments at -rev")
	check := flag.String("check", "", "JSON-lines file whose \"relevant\" labels must each resolve at -rev")
	rev := flag.String("rev", "HEAD", "revision for -defs and -check")
	flag.Parse()

	switch {
	case *defs:
		for _, path := range flag.Args() {
			ds, err := definitionsAt(*rev, path)
			if err != nil {
				log.Fatal(err)
			}
			for _, d := range ds {
				fmt.Printf("%s#%s\t%d-%d\n", path, d.Name, d.Start, d.End)
			}
		}
		return
	case *check != "":
		if err := checkLabels(*check, *rev); err != nil {
			log.Fatal(err)
		}
		return
	}

	shas := flag.Args()
	if *commitsFile != "" {
		fromFile, err := readCommits(*commitsFile)
		if err != nil {
			log.Fatal(err)
		}
		shas = append(fromFile, shas...)
	}
	if len(shas) == 0 {
		log.Fatal("no commits: give shas as arguments or -commits FILE")
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	n := 0
	for _, sha := range shas {
		c, err := makeCase(sha)
		if err != nil {
			log.Fatalf("%s: %v", sha, err)
		}
		if c == nil {
			continue
		}
		if len(c.Relevant) == 0 || len(c.Relevant) > *maxRel {
			log.Printf("%s: dropped, %d relevant definitions", shortSHA(c.Commit), len(c.Relevant))
			continue
		}
		n++
		c.ID = fmt.Sprintf("bug-%02d", n)
		line, err := marshal(c)
		if err != nil {
			log.Fatal(err)
		}
		out.Write(line)
		out.WriteByte('\n')
	}
}

// bugCase is one line of cases.jsonl.
type bugCase struct {
	ID       string   `json:"id"`
	Commit   string   `json:"commit"`
	Parent   string   `json:"parent"`
	Query    string   `json:"query"`
	Relevant []string `json:"relevant"`
	Files    []string `json:"files"`
}

// marshal encodes without HTML escaping, so a message keeps its < > & as
// written.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

func shortSHA(s string) string {
	if len(s) > 7 {
		return s[:7]
	}
	return s
}

// readCommits reads one sha a line; '#' starts a comment.
func readCommits(name string) ([]string, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var shas []string
	for _, line := range strings.Split(string(data), "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		if f := strings.Fields(line); len(f) > 0 {
			shas = append(shas, f[0])
		}
	}
	return shas, nil
}

// git runs git in the current directory and returns its standard output.
func git(args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}

// makeCase builds the case for one fix commit; nil for a merge commit.
func makeCase(sha string) (*bugCase, error) {
	full, err := git("rev-parse", "--verify", sha+"^{commit}")
	if err != nil {
		return nil, err
	}
	full = strings.TrimSpace(full)
	parents, err := git("rev-list", "--parents", "-n", "1", full)
	if err != nil {
		return nil, err
	}
	p := strings.Fields(parents)
	if len(p) != 2 {
		log.Printf("%s: dropped, %d parents (merge or root commit)", shortSHA(full), len(p)-1)
		return nil, nil
	}
	parent := p[1]
	msg, err := git("log", "-1", "--format=%B", full)
	if err != nil {
		return nil, err
	}
	c := &bugCase{Commit: full, Parent: parent, Query: strings.TrimSpace(msg), Relevant: []string{}, Files: []string{}}

	// --no-renames: a renamed file is its old path deleted (it existed at
	// the parent) and a new path added (it did not).
	names, err := git("diff", "--no-renames", "--name-status", parent, full)
	if err != nil {
		return nil, err
	}
	for _, line := range strings.Split(names, "\n") {
		f := strings.Split(line, "\t")
		if len(f) < 2 {
			continue
		}
		status, path := f[0], f[1]
		if status == "A" || !inCorpus(path) {
			continue
		}
		c.Files = append(c.Files, path)
		defs, err := definitionsAt(parent, path)
		if err != nil {
			return nil, err
		}
		hunks, err := parentHunks(parent, full, path)
		if err != nil {
			return nil, err
		}
		for _, d := range defs {
			if d.touchedBy(hunks) {
				c.Relevant = append(c.Relevant, path+"#"+d.Name)
			}
		}
	}
	sort.Strings(c.Files)
	return c, nil
}

// inCorpus reports whether path is a non-test Go file in the folders the
// code index covers.
func inCorpus(path string) bool {
	if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
		return false
	}
	if strings.HasPrefix(path, "testdata/") || strings.Contains(path, "/testdata/") {
		return false
	}
	for _, dir := range []string{"backend/", "bind/", "cmd/", "graphdb/"} {
		if strings.HasPrefix(path, dir) {
			return true
		}
	}
	return false
}

// inFrontend reports whether path is a TypeScript file of the code corpus:
// under frontend/src, not a *.test.ts.
func inFrontend(path string) bool {
	return strings.HasPrefix(path, "frontend/src/") && strings.HasSuffix(path, ".ts") &&
		!strings.HasSuffix(path, ".test.ts") && !strings.Contains(path, "/testdata/")
}

// hunk is the parent side of one diff hunk: Count lines from Start were
// changed or deleted; Count 0 is a pure insertion after line Start.
type hunk struct{ Start, Count int }

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@`)

// parentHunks lists the parent-side hunks of path's diff between parent and
// fix, without context lines.
func parentHunks(parent, fix, path string) ([]hunk, error) {
	diff, err := git("diff", "--no-renames", "--no-ext-diff", "-U0", parent, fix, "--", path)
	if err != nil {
		return nil, err
	}
	var hs []hunk
	for _, line := range strings.Split(diff, "\n") {
		m := hunkHeader.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		start, _ := strconv.Atoi(m[1])
		count := 1
		if m[2] != "" {
			count, _ = strconv.Atoi(m[2])
		}
		hs = append(hs, hunk{start, count})
	}
	return hs, nil
}

// definition is one named top-level definition and its line range (1-based,
// inclusive, doc comment included).
type definition struct {
	Name       string
	Start, End int
}

func (d definition) touchedBy(hs []hunk) bool {
	for _, h := range hs {
		if h.Count == 0 {
			// Inserted between line Start and Start+1: enclosed when
			// both neighbours are inside the definition.
			if d.Start <= h.Start && h.Start+1 <= d.End {
				return true
			}
			continue
		}
		if h.Start <= d.End && d.Start <= h.Start+h.Count-1 {
			return true
		}
	}
	return false
}

// definitionsAt parses path as it is at rev.
func definitionsAt(rev, path string) ([]definition, error) {
	src, err := git("show", rev+":"+path)
	if err != nil {
		return nil, err
	}
	return parseDefinitions(path, src)
}

// parseDefinitions names the definitions of one file as Loom indexes
// them (backend/ingest/code): the labels are the references Loom gives.
func parseDefinitions(path, src string) ([]definition, error) {
	f, err := code.Parse(path, []byte(src))
	if err != nil {
		return nil, err
	}
	if f.Partial { // Loom indexes what the partial tree holds, and so do the labels
		log.Printf("warning: %s has syntax errors (%s): its definitions are those the parser could still read", path, strings.Join(f.Problems, "; "))
	}
	defs := make([]definition, 0, len(f.Defs))
	for _, d := range f.Defs {
		defs = append(defs, definition{d.Name, d.LineStart, d.LineEnd})
	}
	return numberDuplicates(defs), nil
}

// numberDuplicates renames the second definition of a name NAME-2, the
// third NAME-3.
func numberDuplicates(defs []definition) []definition {
	seen := map[string]int{}
	for i := range defs {
		seen[defs[i].Name]++
		if n := seen[defs[i].Name]; n > 1 {
			defs[i].Name = fmt.Sprintf("%s-%d", defs[i].Name, n)
		}
	}
	return defs
}

// checkLabels reports every label in a JSON-lines file ("relevant" lists)
// that does not name exactly one definition at rev, and fails if any does not.
func checkLabels(name, rev string) error {
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	cache := map[string]map[string]int{}
	bad, total := 0, 0
	for i, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var q struct {
			ID       string   `json:"id"`
			Relevant []string `json:"relevant"`
		}
		if err := json.Unmarshal([]byte(line), &q); err != nil {
			return fmt.Errorf("%s:%d: %v", name, i+1, err)
		}
		for _, label := range q.Relevant {
			total++
			path, def, hasDef := strings.Cut(label, "#")
			names, ok := cache[path]
			if !ok {
				ds, err := definitionsAt(rev, path)
				if err != nil {
					names = nil
				} else {
					names = map[string]int{}
					for _, d := range ds {
						names[d.Name]++
					}
				}
				cache[path] = names
			}
			switch {
			case !inCorpus(path) && !inFrontend(path):
				fmt.Printf("%s: %s: not in the code corpus\n", q.ID, label)
				bad++
			case names == nil:
				fmt.Printf("%s: %s: no such file at %s\n", q.ID, label, rev)
				bad++
			case hasDef && names[def] != 1:
				fmt.Printf("%s: %s: %d definitions of that name\n", q.ID, label, names[def])
				bad++
			}
		}
	}
	fmt.Printf("%d labels, %d unresolved\n", total, bad)
	if bad > 0 {
		return fmt.Errorf("%d labels do not resolve", bad)
	}
	return nil
}
