package classify

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

func TestSurvey(t *testing.T) {
	pat := os.Getenv("SURVEY")
	files, _ := filepath.Glob(pat)
	counts := map[string]int{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil || len(b) > 200<<10 {
			continue
		}
		c := Classify(string(b))
		counts[c.Type.String()]++
		if os.Getenv("V") != "" || c.Type.String() != os.Getenv("WANT") {
			fmt.Printf("%-14s %.2f chunk=%v %s  %+v\n", c.Type, c.Complexity, c.Chunk, f, c.Signals.Shares)
		}
	}
	var ks []string
	for k := range counts {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	for _, k := range ks {
		fmt.Println(k, counts[k])
	}
	_ = strings.Repeat
}

func TestDump(t *testing.T) {
	b, _ := os.ReadFile(os.Getenv("DUMP"))
	a := analyze(string(b), &defaultClassifier.cfg)
	names := []string{"blank", "prose", "head", "code", "fence", "log", "stack", "data", "struct"}
	for _, l := range a.lines {
		if os.Getenv("ONLY") != "" && names[l.kind] != os.Getenv("ONLY") {
			continue
		}
		fmt.Printf("%-6s %d| %s\n", names[l.kind], l.seg, a.text[l.start:l.end])
	}
}
