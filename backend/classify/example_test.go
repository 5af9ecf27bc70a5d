package classify_test

import (
	"fmt"
	"strings"

	"github.com/loomwork/loom/backend/classify"
)

func ExampleClassify() {
	for _, text := range []string{
		"What is a concept node?",
		"What is a concept node? How does it differ from a content node?",
		"func main() {\n\tfmt.Println(\"hello\")\n}\n",
		`{"id": "cn-1", "tokens": 812}`,
	} {
		c := classify.Classify(text)
		fmt.Printf("%-13s %.2f\n", c.Type, c.Complexity)
	}
	// Output:
	// simple_query  0.15
	// complex_query 0.24
	// code          0.11
	// structured    0.09
}

func ExampleSplit() {
	var logs strings.Builder
	for i := range 40 {
		fmt.Fprintf(&logs, "2026-11-22T04:00:%02dZ ERROR ingest: embed batch %d failed: connection refused\n", i, i)
	}
	text := "Why does ingest keep failing after I restarted Ollama?\n\n" + logs.String()
	for _, u := range classify.Split(text) {
		fmt.Printf("[%d,%d) %s\n", u.Start, u.End, u.Class.Type)
	}
	// Output:
	// [0,56) simple_query
	// [56,3126) logs
}
