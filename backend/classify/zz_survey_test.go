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
	if l := os.Getenv("LIST"); l != "" {
		b, _ := os.ReadFile(l)
		files = strings.Fields(string(b))
	}
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
	var a analysis
	analyze(&a, string(b), &defaultClassifier.cfg, nil)
	names := []string{"blank", "prose", "head", "code", "fence", "log", "stack", "data", "struct"}
	for _, l := range a.lines {
		if os.Getenv("ONLY") != "" && names[l.kind] != os.Getenv("ONLY") {
			continue
		}
		fmt.Printf("%-6s %d| %s\n", names[l.kind], l.seg, a.text[l.start:l.end])
	}
}

func TestSections(t *testing.T) {
	for _, f := range strings.Fields(os.Getenv("SECTIONS")) {
		b, _ := os.ReadFile(f)
		secs := strings.Split(string(b), "\n#")
		for _, s := range secs {
			c := Classify("#" + s)
			title := strings.SplitN(s, "\n", 2)[0]
			fmt.Printf("%-13s %.2f %v %-40.40s %+v\n", c.Type, c.Complexity, c.Chunk, title, c.Signals.Shares)
		}
	}
}

func TestQueries(t *testing.T) {
	for _, q := range []string{
		"hi", "loom ranking weights", "thanks!", "Why?", "why does ingest fail", "Can you help me debug the ranking?",
		"Explain how concept nodes are created and why the threshold is 0.8.",
		"What are the pros and cons of flat files vs bolt?",
		"How do I fix this:\nfoo := bar()\n",
		"I think the classifier is wrong. It marks my notes as code.",
		"Do not run go mod tidy.",
		"Is it possible to use Loom without Ollama, and if so, which embedder is used and how good is it compared to nomic-embed-text?",
		"what's the difference between simple and complex queries",
		"Tell me about Loom.",
		"Please review this function:\n\n" + goCode,
		"```\n" + goCode + "```\nwhy is the result always 0?",
		"Here is my config:\n" + yamlData,
		"- What is a node?\n- What is an edge?",
		"Translate to French: the graph is empty.",
		"Note: the graph is rebuilt on startup.",
		"Status: draft",
	} {
		c := Classify(q)
		fmt.Printf("%-13s %.2f %q\n", c.Type, c.Complexity, q[:min(len(q), 70)])
	}
}
