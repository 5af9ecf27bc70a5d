package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func names(fs []failure) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.name)
	}
	return out
}

// testdata/gotest.json is real `go test -json ./...` output of a module
// with a passing package (a skip, subtests), a failing subtest, a package
// that does not build, one without tests, and a test that calls os.Exit.
func TestGoTestCountsEveryTestAndNamesWhatFailed(t *testing.T) {
	out, err := os.ReadFile("testdata/gotest.json")
	require.NoError(t, err)
	res := parseGoTest(&run{stdout: out})

	assert.True(t, res.counted)
	assert.Equal(t, 6, res.passed, "ok: 2 tests + 2 subtests; bad: a test and a subtest")
	assert.Equal(t, 1, res.skipped)
	assert.Equal(t, 4, res.failed, "the failing subtest and its parent, the package that did not build, the test the exit killed")
	assert.Equal(t, []string{
		"gt/bad TestFailsInASubtest/broken",
		"gt/crash TestDiesOutsideTheHarness",
		"gt/nobuild (build failed)",
	}, names(res.failures), "the parent of a failed subtest is not printed twice")
	assert.Contains(t, res.failures[0].output, "want 3, got 4")
	assert.Contains(t, res.failures[0].output, "context line")
	assert.Contains(t, res.failures[2].output, "undefined: undefinedThing")
	assert.Contains(t, res.log, "--- FAIL: TestFailsInASubtest/broken", "the log is the text go test would print")
}

func TestGoTestWithNoEventsCountsNothing(t *testing.T) {
	res := parseGoTest(&run{stdout: []byte("exec: node not found\n")})
	assert.False(t, res.counted)
	assert.Zero(t, res.failed+res.passed)
	assert.Equal(t, "exec: node not found\n", res.log)
}

func TestVetCountsPackages(t *testing.T) {
	out, err := os.ReadFile("testdata/vet.json")
	require.NoError(t, err)
	res := parseVet(&run{stdout: out})
	assert.Equal(t, 1, res.passed)
	assert.Equal(t, 1, res.failed)
	require.Len(t, res.failures, 1)
	assert.Equal(t, "vetx/a", res.failures[0].name)
	assert.Contains(t, res.failures[0].output, "a.go:3:24: fmt.Printf format %d has arg \"x\" of wrong type string (printf)")
}

func TestSvelteCheckCountsFilesWithProblems(t *testing.T) {
	clean := parseSvelteCheck(&run{stdout: []byte("1795 START \"/repo/frontend\"\n1795 COMPLETED 317 FILES 0 ERRORS 0 WARNINGS 0 FILES_WITH_PROBLEMS\n")})
	assert.Equal(t, result{passed: 317, counted: true}, clean)

	bad := parseSvelteCheck(&run{stdout: []byte("1795 START \"/repo/frontend\"\n" +
		"1795 ERROR \"src/App.svelte\" 3:5 \"Type 'string' is not assignable to type 'number'.\"\n" +
		"1795 WARNING \"src/x.svelte\" 1:1 \"Unused CSS selector\"\n" +
		"1795 COMPLETED 317 FILES 1 ERRORS 1 WARNINGS 2 FILES_WITH_PROBLEMS\n")})
	assert.Equal(t, 315, bad.passed)
	assert.Equal(t, 2, bad.failed)
	require.Len(t, bad.failures, 1)
	assert.Contains(t, bad.failures[0].output, `ERROR "src/App.svelte" 3:5`)
	assert.Contains(t, bad.failures[0].output, "Unused CSS selector")
}

// testdata/vitest.json is Vitest 3's JSON reporter on a file with a
// passing, a failing and a skipped test, and a file that does not load.
func TestVitestCountsTestsAndFilesThatDidNotLoad(t *testing.T) {
	res := parseVitest(&run{jsonPath: "testdata/vitest.json"})
	assert.True(t, res.counted)
	assert.Equal(t, 1, res.passed)
	assert.Equal(t, 1, res.skipped)
	assert.Equal(t, 2, res.failed, "the failing test and the file that did not load")
	require.Len(t, res.failures, 2)
	assert.Equal(t, "/repo/frontend/src/zz/a.test.ts › sums subtracts", res.failures[0].name)
	assert.Contains(t, res.failures[0].output, "expected 2 to be 3")
	assert.Contains(t, res.failures[1].output, "missing-module")
}

func TestVitestWithoutAReportCountsNothing(t *testing.T) {
	res := parseVitest(&run{jsonPath: filepath.Join(t.TempDir(), "none.json")})
	assert.False(t, res.counted)
}

func TestEndToEndLinesAddUp(t *testing.T) {
	out := "e2e-web: serving build/web at http://127.0.0.1:4000/loom-web/\n" +
		"e2e: ok   the page shows the drop zone\n" +
		"e2e: FAIL a smaller budget loads less — loaded tokens 900 → 900\n" +
		"e2e: 11 passed, 1 failed (screenshots in /x)\n" +
		"web-extra: ok   the boot overlay showed the download\n" +
		"web-extra: 14 passed, 0 failed, 2 skipped (screenshots in /x)\n"
	res := parseCounts(&run{stdout: []byte(out)})
	assert.True(t, res.counted)
	assert.Equal(t, 25, res.passed)
	assert.Equal(t, 1, res.failed)
	assert.Equal(t, 2, res.skipped)
	require.Len(t, res.failures, 1)
	assert.Equal(t, "e2e: FAIL a smaller budget loads less — loaded tokens 900 → 900\n", res.failures[0].output)

	assert.False(t, parseCounts(&run{stdout: []byte("desktop smoke: building\n")}).counted)
}

func TestCutKeepsTheEnd(t *testing.T) {
	assert.Equal(t, "a\nb\n", cut("a\nb\n", 2))
	assert.Equal(t, "a\n… 3 more lines in the log …\ne\nf\n", cut("a\nb\nc\nd\ne\nf", 3))
}

func TestChooseNamesUnknownSuites(t *testing.T) {
	all, err := choose("")
	require.NoError(t, err)
	assert.Len(t, all, len(suites))
	some, err := choose("vitest, go-vet")
	require.NoError(t, err)
	assert.Equal(t, []string{"go-vet", "vitest"}, []string{some[0].slug, some[1].slug}, "in the table's order")
	_, err = choose("vitest,nope")
	assert.ErrorContains(t, err, `no suite "nope"`)
}

func TestTableLinesUp(t *testing.T) {
	got := formatTable([][]string{{"suite", "passed"}, {"go test -race", "5"}, {"vitest", "146"}})
	assert.Equal(t, "suite          passed\ngo test -race       5\nvitest            146\n", got)
}

func TestFirstStackKeepsTheCrashingGoroutine(t *testing.T) {
	crash := "=== RUN   TestX\nfatal error: checkptr: converted pointer straddles multiple allocations\n\n" +
		"goroutine 49 [running]:\nbolt.(*Bucket).write()\n\n" +
		"goroutine 1 [chan receive]:\ntesting.(*T).Run()\n\n" +
		"goroutine 2 [force gc (idle)]:\nruntime.forcegchelper()\n\n" +
		"FAIL\tgithub.com/loomwork/loom/backend\t0.03s\n"
	assert.Equal(t, "=== RUN   TestX\nfatal error: checkptr: converted pointer straddles multiple allocations\n\n"+
		"goroutine 49 [running]:\nbolt.(*Bucket).write()\n\n"+
		"FAIL\tgithub.com/loomwork/loom/backend\t0.03s\n(2 more goroutines' stacks in the log)\n", firstStack(crash))
	assert.Equal(t, "--- FAIL: x\n", firstStack("--- FAIL: x\n"))
}
