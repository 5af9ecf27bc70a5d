package classify

import (
	"math"
	"testing"
)

func FuzzClassify(f *testing.F) {
	for _, seed := range []string{
		"", " ", "What is X?", fivePartQuestion, markdownSection, goCode, pythonCode, goPanic,
		pythonTraceback, javaTrace, jsTrace, prettyJSON, xmlDoc, csvData, yamlData, logLines(8),
		"Why?\n" + logLines(60), "```", "{\"a\n", "[[[", "\xff\xfe", "a\r\nb\r\n", "\x00",
		longProse(1500) + "```go\n" + goCode + "```\n" + longProse(500),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c := Classify(text)
		if math.IsNaN(c.Complexity) || c.Complexity < 0 || c.Complexity > 1 {
			t.Fatalf("complexity %v out of [0,1]", c.Complexity)
		}
		if c.Type.String() == "" || int(c.Type) >= len(typeNames) {
			t.Fatalf("bad type %d", c.Type)
		}
		// A low threshold makes the fuzzer exercise splitting on short inputs.
		for _, units := range [][]Unit{Split(text), Split(text, WithChunkThreshold(0), WithMinUnitBytes(8))} {
			if len(units) == 0 {
				t.Fatal("no units")
			}
			prev := 0
			for i, u := range units {
				if u.Start != prev || u.End < u.Start || u.End > len(text) {
					t.Fatalf("unit %d range [%d,%d) after %d, len %d", i, u.Start, u.End, prev, len(text))
				}
				if u.Text != text[u.Start:u.End] {
					t.Fatalf("unit %d text does not match its range", i)
				}
				if x := u.Class.Complexity; math.IsNaN(x) || x < 0 || x > 1 {
					t.Fatalf("unit %d complexity %v", i, x)
				}
				prev = u.End
			}
			if prev != len(text) {
				t.Fatalf("units end at %d, text at %d", prev, len(text))
			}
		}
		if c.Chunk != (len(Split(text)) > 1) {
			t.Fatalf("Chunk=%v but Split made %d units", c.Chunk, len(Split(text)))
		}
	})
}
