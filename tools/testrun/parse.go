package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// testEvent is one line of `go test -json` (cmd/test2json's TestEvent),
// with the build events go test adds since Go 1.24.
type testEvent struct {
	Action      string
	Package     string
	Test        string
	Output      string
	ImportPath  string // build-output, build-fail
	FailedBuild string // a package's fail after its build failed
}

// parseGoTest counts every test and subtest by its final action (pass,
// fail, skip). A failed test's output is printed unless one of its
// subtests failed too (then the subtest's is, once). A package that failed
// with no test failing in it (it did not build, it panicked outside a
// test, the binary died or timed out) counts as one failure with the
// package's own output.
func parseGoTest(r *run) result {
	var res result
	var text strings.Builder
	type key struct{ pkg, test string }
	output := map[key]*strings.Builder{}
	buildOutput := map[string]*strings.Builder{}
	status := map[key]string{}
	var order []key
	started := map[key]int{}          // in the order they started
	failedPkgs := map[string]string{} // package → the build that failed ("" when it did not fail building)
	var pkgOrder []string

	sc := bufio.NewScanner(bytes.NewReader(r.stdout))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e testEvent
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			text.Write(line) // not an event: a line from the wasm exec wrapper, say
			text.WriteByte('\n')
			continue
		}
		switch e.Action {
		case "build-output":
			b := buildOutput[e.ImportPath]
			if b == nil {
				b = &strings.Builder{}
				buildOutput[e.ImportPath] = b
			}
			b.WriteString(e.Output)
			text.WriteString(e.Output)
			continue
		case "build-fail":
			continue
		}
		k := key{e.Package, e.Test}
		switch e.Action {
		case "output":
			b := output[k]
			if b == nil {
				b = &strings.Builder{}
				output[k] = b
			}
			b.WriteString(e.Output)
			text.WriteString(e.Output)
		case "run":
			if _, seen := started[k]; !seen {
				started[k] = len(started)
			}
		case "pass", "fail", "skip":
			if e.Test == "" {
				if e.Action == "fail" {
					failedPkgs[e.Package] = e.FailedBuild
					pkgOrder = append(pkgOrder, e.Package)
				}
				continue
			}
			if _, seen := status[k]; !seen {
				order = append(order, k)
			}
			status[k] = e.Action
		}
	}
	res.log = text.String()

	// A test that started but never ended was running when its package's
	// binary died (a timeout's panic, os.Exit, a fatal error): it failed,
	// and the package's own output says how.
	var unfinished []key
	for k := range started {
		if _, ended := status[k]; !ended {
			unfinished = append(unfinished, k)
		}
	}
	sort.Slice(unfinished, func(i, j int) bool { return started[unfinished[i]] < started[unfinished[j]] })
	for _, k := range unfinished {
		if _, failed := failedPkgs[k.pkg]; !failed {
			continue
		}
		order = append(order, k)
		status[k] = "fail"
		b := output[k]
		if b == nil {
			b = &strings.Builder{}
			output[k] = b
		}
		b.WriteString(builderString(output[key{k.pkg, ""}]))
	}

	hasFailedSubtest := map[key]bool{}
	pkgHasFailure := map[string]bool{}
	for k, s := range status {
		if s != "fail" {
			continue
		}
		pkgHasFailure[k.pkg] = true
		for parent := k.test; strings.Contains(parent, "/"); {
			parent = parent[:strings.LastIndex(parent, "/")]
			hasFailedSubtest[key{k.pkg, parent}] = true
		}
	}
	for _, k := range order {
		switch status[k] {
		case "pass":
			res.passed++
		case "skip":
			res.skipped++
		case "fail":
			res.failed++
			if !hasFailedSubtest[k] {
				res.failures = append(res.failures, failure{k.pkg + " " + k.test, builderString(output[k])})
			}
		}
	}
	for _, pkg := range pkgOrder {
		if pkgHasFailure[pkg] {
			continue
		}
		res.failed++
		out := builderString(output[key{pkg, ""}])
		what := pkg
		if build := failedPkgs[pkg]; build != "" {
			out = builderString(buildOutput[build]) + out
			what += " (build failed)"
		}
		res.failures = append(res.failures, failure{what, out})
	}
	res.counted = len(order) > 0 || len(pkgOrder) > 0 || bytes.Contains(r.stdout, []byte(`"Action":"skip"`))
	return res
}

func builderString(b *strings.Builder) string {
	if b == nil {
		return ""
	}
	return b.String()
}

// parseVet reads `go vet -json`: a JSON object per package on stdout,
// {} when clean, else {package: {analyzer: [diagnostics]}}. A package that
// does not compile prints no object (its error is on stderr, and vet exits
// non-zero, which runSuite counts).
func parseVet(r *run) result {
	var res result
	dec := json.NewDecoder(bytes.NewReader(r.stdout))
	for {
		var obj map[string]map[string][]struct {
			Posn    string `json:"posn"`
			Message string `json:"message"`
		}
		err := dec.Decode(&obj)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			res.failed++
			res.failures = append(res.failures, failure{"go vet output", err.Error()})
			break
		}
		res.counted = true
		if len(obj) == 0 {
			res.passed++
			continue
		}
		pkgs := make([]string, 0, len(obj))
		for p := range obj {
			pkgs = append(pkgs, p)
		}
		sort.Strings(pkgs)
		for _, pkg := range pkgs {
			var b strings.Builder
			for analyzer, diags := range obj[pkg] {
				for _, d := range diags {
					fmt.Fprintf(&b, "%s: %s (%s)\n", d.Posn, d.Message, analyzer)
				}
			}
			if b.Len() == 0 {
				res.passed++
				continue
			}
			res.failed++
			res.failures = append(res.failures, failure{pkg, b.String()})
		}
	}
	return res
}

// svelte-check --output machine: "<ms> COMPLETED 317 FILES 0 ERRORS 0
// WARNINGS 0 FILES_WITH_PROBLEMS", after a line per problem
// ("<ms> ERROR "file" 3:5 "message"", WARNING likewise).
var checkDone = regexp.MustCompile(`COMPLETED (\d+) FILES (\d+) ERRORS (\d+) WARNINGS (\d+) FILES_WITH_PROBLEMS`)

// parseSvelteCheck counts files: the ones with a problem failed (with
// --fail-on-warnings a warning is a problem too).
func parseSvelteCheck(r *run) result {
	var res result
	var problems strings.Builder
	for _, line := range strings.Split(string(r.stdout), "\n") {
		fields := strings.Fields(line)
		if len(fields) > 1 && (fields[1] == "ERROR" || fields[1] == "WARNING") {
			problems.WriteString(strings.Join(fields[1:], " ") + "\n")
		}
		if m := checkDone.FindStringSubmatch(line); m != nil {
			files, _ := strconv.Atoi(m[1])
			bad, _ := strconv.Atoi(m[4])
			res.passed, res.failed, res.counted = files-bad, bad, true
		}
	}
	if problems.Len() > 0 {
		res.failures = append(res.failures, failure{"svelte-check", problems.String()})
		if res.failed == 0 {
			res.failed = 1
		}
	}
	return res
}

// vitestReport is the part of Vitest's JSON reporter testrun reads.
type vitestReport struct {
	NumPassedTests  int `json:"numPassedTests"`
	NumFailedTests  int `json:"numFailedTests"`
	NumPendingTests int `json:"numPendingTests"`
	NumTodoTests    int `json:"numTodoTests"`
	TestResults     []struct {
		Name             string `json:"name"`
		Status           string `json:"status"`
		Message          string `json:"message"`
		AssertionResults []struct {
			FullName        string   `json:"fullName"`
			Status          string   `json:"status"`
			FailureMessages []string `json:"failureMessages"`
		} `json:"assertionResults"`
	} `json:"testResults"`
}

// parseVitest reads the JSON reporter's file. A test file that failed
// without a failing test (it did not load) counts as one failure.
func parseVitest(r *run) result {
	var res result
	b, err := os.ReadFile(r.jsonPath)
	if err != nil {
		return res // no report: runSuite counts the exit status
	}
	var rep vitestReport
	if err := json.Unmarshal(b, &rep); err != nil {
		res.failed = 1
		res.failures = []failure{{"vitest report " + r.jsonPath, err.Error()}}
		return res
	}
	res.counted = true
	res.passed, res.failed, res.skipped = rep.NumPassedTests, rep.NumFailedTests, rep.NumPendingTests+rep.NumTodoTests
	for _, file := range rep.TestResults {
		failedHere := false
		for _, a := range file.AssertionResults {
			if a.Status == "failed" {
				failedHere = true
				res.failures = append(res.failures, failure{file.Name + " › " + a.FullName, strings.Join(a.FailureMessages, "\n")})
			}
		}
		if file.Status == "failed" && !failedHere {
			res.failed++
			res.failures = append(res.failures, failure{file.Name, file.Message})
		}
	}
	return res
}

// The end-to-end scripts end with "NAME: N passed, M failed" (", K
// skipped" optional; a script may print several: they add up) and mark a
// failed check with "NAME: FAIL ...".
var (
	countsLine = regexp.MustCompile(`^[\w .-]+: (\d+) passed, (\d+) failed(?:, (\d+) skipped)?`)
	failLine   = regexp.MustCompile(`^[\w .-]+: FAIL\b`)
)

func parseCounts(r *run) result {
	var res result
	var fails strings.Builder
	for _, line := range strings.Split(string(r.stdout), "\n") {
		if m := countsLine.FindStringSubmatch(line); m != nil {
			p, _ := strconv.Atoi(m[1])
			f, _ := strconv.Atoi(m[2])
			s, _ := strconv.Atoi(m[3]) // "" → 0
			res.passed += p
			res.failed += f
			res.skipped += s
			res.counted = true
		}
		if failLine.MatchString(line) {
			fails.WriteString(line + "\n")
		}
	}
	if fails.Len() > 0 {
		res.failures = append(res.failures, failure{"checks", fails.String()})
	}
	return res
}
