// Command testrun is `make test`: it runs every suite of Loom's tests one
// after another, all of them even when one fails, keeps each suite's whole
// output in a log file under build/test/, prints only what failed (the
// failing tests' own output) and one summary table, and exits non-zero when
// any suite failed.
//
//	go run ./tools/testrun [-only go-test,vitest] [-logs build/test]
//
// Each suite is a Makefile target (the commands live there, so a person can
// run one suite by hand: `make test-vitest`); testrun asks it for machine
// output through make variables (go test -json, go vet -json, Vitest's JSON
// reporter, svelte-check's machine output) and counts passed, failed and
// skipped tests from it. The end-to-end scripts print their own
// "NAME: N passed, M failed" lines, which are counted the same way.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"
)

// A suite is one row of the summary table.
type suite struct {
	slug string // the log's name and what -only takes
	name string // the table's
	// target and vars are the make target and the variables that make it
	// print what parse reads; {json} is replaced by the suite's JSON file.
	target string
	vars   []string
	parse  func(run *run) result
	// jsonStdout: stdout is JSON (go test -json), kept in the suite's
	// .json file; the log gets the text it renders instead.
	jsonStdout bool
}

// run is what a suite left behind.
type run struct {
	stdout   []byte // what the command wrote on stdout (machine output)
	jsonPath string // the file {json} named
	exitCode int
}

// result is a suite's counts and the output of what failed.
type result struct {
	passed, failed, skipped int
	failures                []failure
	// counted is false when the output named no tests at all (a suite
	// that ran nothing is broken).
	counted bool
	// log is the text of a JSON stdout (go test's: the Output of every
	// event, as go test would have printed it).
	log string
}

type failure struct {
	name   string
	output string
}

// raceTarget is its own row: today the race detector's checkptr stops
// bolt's tests (backend, bind), so it fails until bolt gives way to bbolt.
var suites = []suite{
	{slug: "go-vet", name: "go vet", target: "test-vet", vars: []string{"VET_FLAGS=-json"}, parse: parseVet},
	{slug: "go-test", name: "go test", target: "test-go", vars: []string{"GO_TEST_FLAGS=-json"}, parse: parseGoTest, jsonStdout: true},
	{slug: "go-race", name: "go test -race", target: "test-race", vars: []string{"GO_TEST_FLAGS=-json"}, parse: parseGoTest, jsonStdout: true},
	{slug: "go-wasm", name: "go test wasm", target: "test-wasm", vars: []string{"GO_TEST_FLAGS=-json"}, parse: parseGoTest, jsonStdout: true},
	{slug: "frontend-check", name: "frontend check", target: "test-check", vars: []string{"CHECK_FLAGS=--output machine"}, parse: parseSvelteCheck},
	{slug: "vitest", name: "vitest", target: "test-vitest", vars: []string{"VITEST_FLAGS=--reporter=default --reporter=json --outputFile.json={json}"}, parse: parseVitest},
	{slug: "desktop-smoke", name: "desktop smoke", target: "test-desktop-smoke", parse: parseCounts},
	{slug: "desktop-e2e", name: "desktop e2e", target: "test-desktop-e2e", parse: parseCounts},
	{slug: "web-e2e", name: "web e2e", target: "test-web-e2e", parse: parseCounts},
}

// Failure output is cut to this many lines per failing test; the log has all.
const maxFailureLines = 60

func main() {
	only := flag.String("only", "", "comma-separated suites to run (of: "+slugs()+"); all by default")
	logs := flag.String("logs", "build/test", "where each suite's log goes")
	flag.Parse()

	chosen, err := choose(*only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testrun:", err)
		os.Exit(2)
	}
	if err := os.MkdirAll(*logs, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "testrun:", err)
		os.Exit(2)
	}
	// The JSON files' paths go to tools that run in other folders (Vitest
	// in frontend/): absolute.
	absLogs, err := filepath.Abs(*logs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testrun:", err)
		os.Exit(2)
	}

	type row struct {
		suite
		result
		seconds float64
		logPath string
	}
	var rows []row
	for _, s := range chosen {
		fmt.Printf("test: %s …\n", s.name)
		start := time.Now()
		logPath := filepath.Join(*logs, s.slug+".log")
		res := runSuite(s, logPath, filepath.Join(absLogs, s.slug+".json"))
		r := row{suite: s, result: res, seconds: time.Since(start).Seconds(), logPath: logPath}
		rows = append(rows, r)
		if res.failed == 0 {
			fmt.Printf("test: %s: ok, %s (%.0f s)\n", s.name, counts(res), r.seconds)
			continue
		}
		fmt.Printf("test: %s: FAILED, %s (%.0f s); whole log: %s\n", s.name, counts(res), r.seconds, logPath)
		for _, f := range res.failures {
			fmt.Printf("--- FAIL: %s\n%s", f.name, indent(cut(firstStack(f.output), maxFailureLines)))
		}
	}

	var total result
	var seconds float64
	var failedSuites []string
	table := [][]string{{"suite", "passed", "failed", "skipped", "seconds"}}
	for _, r := range rows {
		table = append(table, []string{r.name, fmt.Sprint(r.passed), fmt.Sprint(r.failed), fmt.Sprint(r.skipped), fmt.Sprintf("%.0f", r.seconds)})
		total.passed += r.passed
		total.failed += r.failed
		total.skipped += r.skipped
		seconds += r.seconds
		if r.failed > 0 {
			failedSuites = append(failedSuites, r.name)
		}
	}
	table = append(table, []string{"total", fmt.Sprint(total.passed), fmt.Sprint(total.failed), fmt.Sprint(total.skipped), fmt.Sprintf("%.0f", seconds)})
	fmt.Println()
	fmt.Print(formatTable(table))
	if len(failedSuites) > 0 {
		fmt.Printf("\ntest: FAILED: %s (logs in %s)\n", strings.Join(failedSuites, ", "), *logs)
		os.Exit(1)
	}
	fmt.Printf("\ntest: all %d suites passed (logs in %s)\n", len(rows), *logs)
}

// formatTable lines the rows up: the first column to the left, numbers to
// the right.
func formatTable(rows [][]string) string {
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, cell := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(cell))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		for i, cell := range r {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell))
			if i == 0 {
				b.WriteString(cell + pad)
			} else {
				b.WriteString("  " + pad + cell)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

func slugs() string {
	var s []string
	for _, x := range suites {
		s = append(s, x.slug)
	}
	return strings.Join(s, ", ")
}

func choose(only string) ([]suite, error) {
	if strings.TrimSpace(only) == "" {
		return suites, nil
	}
	want := map[string]bool{}
	for _, s := range strings.Split(only, ",") {
		want[strings.TrimSpace(s)] = true
	}
	var out []suite
	for _, s := range suites {
		if want[s.slug] {
			out = append(out, s)
			delete(want, s.slug)
		}
	}
	for s := range want {
		return nil, fmt.Errorf("no suite %q (the suites: %s)", s, slugs())
	}
	return out, nil
}

// runSuite runs the suite's make target with its log open, then counts.
func runSuite(s suite, logPath, jsonPath string) result {
	logFile, err := os.Create(logPath)
	if err != nil {
		return result{failed: 1, failures: []failure{{s.name, err.Error()}}, counted: true}
	}
	defer logFile.Close()
	_ = os.Remove(jsonPath)

	args := []string{"--no-print-directory", "-s", s.target}
	for _, v := range s.vars {
		args = append(args, strings.ReplaceAll(v, "{json}", jsonPath))
	}
	cmd := exec.Command("make", args...)
	var stdout bytes.Buffer
	// The log keeps stdout and stderr in the order they came; stdout is
	// also kept apart for the parser.
	cmd.Stdout = io.MultiWriter(logFile, &stdout)
	if s.jsonStdout {
		jsonFile, err := os.Create(jsonPath)
		if err != nil {
			return result{failed: 1, failures: []failure{{s.name, err.Error()}}, counted: true}
		}
		defer jsonFile.Close()
		cmd.Stdout = io.MultiWriter(jsonFile, &stdout)
	}
	cmd.Stderr = logFile
	cmd.Stdin = nil
	err = cmd.Run()
	r := &run{stdout: stdout.Bytes(), jsonPath: jsonPath}
	if err != nil {
		r.exitCode = -1
		if ee, ok := err.(*exec.ExitError); ok {
			r.exitCode = ee.ExitCode()
		} else {
			fmt.Fprintf(logFile, "\ntestrun: %v\n", err)
		}
	}
	res := s.parse(r)
	if s.jsonStdout {
		io.WriteString(logFile, res.log)
	}
	switch {
	case r.exitCode != 0 && res.failed == 0:
		res.failed = 1
		res.failures = append(res.failures, failure{fmt.Sprintf("%s (exit status %d)", s.name, r.exitCode), tailOfFile(logPath, 40)})
	case !res.counted && r.exitCode == 0:
		res.failed = 1
		res.failures = append(res.failures, failure{s.name, "it reported no tests: " + tailOfFile(logPath, 20)})
	case res.failed > 0 && len(res.failures) == 0:
		// Counted as failed, but said why only on stderr (the smoke test).
		res.failures = append(res.failures, failure{s.name, tailOfFile(logPath, 40)})
	}
	return res
}

func counts(r result) string {
	parts := []string{fmt.Sprintf("%d passed", r.passed)}
	if r.failed > 0 {
		parts = append([]string{fmt.Sprintf("%d failed", r.failed)}, parts...)
	}
	if r.skipped > 0 {
		parts = append(parts, fmt.Sprintf("%d skipped", r.skipped))
	}
	return strings.Join(parts, ", ")
}

func tailOfFile(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	return tail(string(b), n)
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n") + "\n"
}

// firstStack leaves out every goroutine's stack of a crash but the first
// (the one that crashed, or the test that timed out): a fatal error or a
// timeout dumps them all, and the rest are the runtime's idle helpers.
func firstStack(s string) string {
	blocks := strings.Split(s, "\n\n")
	var kept []string
	stacks, left := 0, 0
	for _, b := range blocks {
		if strings.HasPrefix(b, "goroutine ") {
			stacks++
			if stacks > 1 {
				left++
				continue
			}
		}
		kept = append(kept, b)
	}
	out := strings.Join(kept, "\n\n")
	if left > 0 {
		out = strings.TrimRight(out, "\n") + fmt.Sprintf("\n(%d more goroutines' stacks in the log)\n", left)
	}
	return out
}

// cut keeps n lines of s: a third from its start (where a crash says what
// it was: "panic:", "fatal error:") and the rest from its end (where a
// test's failure message is), and says how many it left out.
func cut(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) <= n {
		return strings.Join(lines, "\n") + "\n"
	}
	head := n / 3
	return strings.Join(lines[:head], "\n") + fmt.Sprintf("\n… %d more lines in the log …\n", len(lines)-n) +
		strings.Join(lines[len(lines)-(n-head):], "\n") + "\n"
}

func indent(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString("    " + l + "\n")
	}
	return b.String()
}
