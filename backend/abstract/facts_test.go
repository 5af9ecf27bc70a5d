package abstract

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/tokens"
)

// factCase is one line of testdata/summaries/facts.jsonl: a section of a
// reference document and the facts, judged by hand before looking at any
// output, that its summary and its essence must keep.
type factCase struct {
	File        string   `json:"file"`
	Heading     string   `json:"heading"`
	SummaryMust []string `json:"summary_must"`
	EssenceMust []string `json:"essence_must"`
}

func readFacts(t *testing.T) []factCase {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "summaries", "facts.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	var cases []factCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c factCase
		require.NoError(t, json.Unmarshal(sc.Bytes(), &c), "facts.jsonl line %q", sc.Text())
		require.NotEmpty(t, c.SummaryMust, "%s#%s: no summary facts", c.File, c.Heading)
		require.NotEmpty(t, c.EssenceMust, "%s#%s: no essence facts", c.File, c.Heading)
		cases = append(cases, c)
	}
	require.NoError(t, sc.Err())
	return cases
}

// normFact lowers case, drops emphasis markers and backticks, makes curly
// quotes straight and dashes hyphens, and collapses white space: what a
// fact is compared by.
func normFact(s string) string {
	s = strings.ToLower(s)
	s = strings.NewReplacer("**", "", "`", "", "’", "'", "‘", "'", "“", `"`, "”", `"`, "–", "-", "—", "-").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// delimiterRow is a table's second line, "|---|:--:|".
var delimiterRow = regexp.MustCompile(`^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$`)

// tableHeaders returns the header rows of the tables in src, each as its
// cells normalised and joined with "|".
func tableHeaders(src string) map[string]bool {
	lines := strings.Split(src, "\n")
	out := map[string]bool{}
	for i := 1; i < len(lines); i++ {
		if delimiterRow.MatchString(lines[i]) && strings.Contains(lines[i], "-") && strings.Contains(lines[i-1], "|") {
			out[rowKey(lines[i-1])] = true
		}
	}
	return out
}

func rowKey(line string) string {
	line = strings.Trim(strings.TrimSpace(line), "|")
	var cells []string
	for _, c := range strings.Split(line, "|") {
		cells = append(cells, normFact(c))
	}
	return strings.Join(cells, "|")
}

// TestSummaryFacts summarises 30 sections of the reference documents, read
// by the real ingest, at their default sizes, and counts the facts judged
// by hand in testdata/summaries/facts.jsonl that each keeps (logging every
// miss), failing when fewer than minFactsKept are; and it checks that no
// summary or essence ends on a colon, is only the heading or ends on a
// table's bare header row.
func TestSummaryFacts(t *testing.T) {
	dir := referenceDir()
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no reference documents in %s (set LOOM_REFERENCE to the folder of shared/reference)", dir)
	}
	count := tokens.Default().Count
	e := Extractive{Count: count, Additive: true}
	docs := map[string][]ingest.Section{}
	total, kept := 0, 0
	for _, c := range readFacts(t) {
		sections, ok := docs[c.File]
		if !ok {
			data, err := os.ReadFile(filepath.Join(dir, c.File))
			require.NoError(t, err)
			parsed, err := ingest.Parse(c.File, c.File, "reference", data, ingest.Options{CountTokens: count})
			require.NoError(t, err)
			require.Len(t, parsed, 1)
			sections = parsed[0].Sections
			docs[c.File] = sections
		}
		var sec *ingest.Section
		for i := range sections {
			if p := sections[i].HeadingPath; len(p) > 0 && p[len(p)-1] == c.Heading {
				sec = &sections[i]
				break
			}
		}
		if sec == nil {
			t.Errorf("%s: no section headed %q", c.File, c.Heading)
			continue
		}
		name := c.File + "#" + c.Heading
		n := count(sec.Text)
		summary, err := e.Summarize(context.Background(), sec.Text, Summary, Target(Summary, n))
		require.NoError(t, err, name)
		essence, err := e.Summarize(context.Background(), sec.Text, Essence, Target(Essence, n))
		require.NoError(t, err, name)
		t.Logf("%s\n  summary: %q\n  essence: %q", name, summary, essence)

		check := func(level, out string, facts []string) {
			norm := normFact(out)
			for _, f := range facts {
				total++
				if strings.Contains(norm, normFact(f)) {
					kept++
				} else {
					t.Logf("%s: %s lacks %q:\n%s", name, level, f, out)
				}
			}
			trimmed := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(out), "…"))
			if strings.HasSuffix(trimmed, ":") {
				t.Errorf("%s: %s ends on a colon:\n%s", name, level, out)
			}
			heading := normFact(essenceHeading(c.Heading))
			if o := strings.TrimRight(norm, ".:…"); o == heading || o == normFact(c.Heading) {
				t.Errorf("%s: %s is only its heading: %q", name, level, out)
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if last := lines[len(lines)-1]; strings.HasPrefix(strings.TrimSpace(last), "|") && tableHeaders(sec.Text)[rowKey(last)] {
				t.Errorf("%s: %s ends on a table's bare header row:\n%s", name, level, out)
			}
		}
		check("summary", summary, c.SummaryMust)
		check("essence", essence, c.EssenceMust)
	}
	t.Logf("facts kept: %d of %d", kept, total)
	// An extractive summary of a quarter of a section cannot keep every
	// fact; the rules above it must always keep. minFactsKept is what
	// extractive/v5 keeps, as v2 did (extractive/v1 kept 52 of 89): a change that
	// loses facts fails here, one that keeps more should raise it.
	require.GreaterOrEqual(t, kept, minFactsKept, "facts kept fell: run with -v to see which")
}

// minFactsKept is the floor TestSummaryFacts holds the summariser to.
const minFactsKept = 61
