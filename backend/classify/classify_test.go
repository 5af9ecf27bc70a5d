package classify

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestClassifyTypes(t *testing.T) {
	tests := []struct {
		name string
		text string
		want ContentType
	}{
		// Queries.
		{"simple what question", "What is a concept node?", TypeSimpleQuery},
		{"simple how question without mark", "how to rebuild the index", TypeSimpleQuery},
		{"simple request", "Explain the staleness decay curve.", TypeSimpleQuery},
		{"simple yes/no question", "Does Loom work offline?", TypeSimpleQuery},
		{"question after context", "I moved my workspace to a new disk and the graph looks empty. Where does Loom keep its index?", TypeSimpleQuery},
		{"contraction", "What's the default output reservation?", TypeSimpleQuery},
		{"several questions", "What is a concept node? How is it different from a content node?", TypeComplexQuery},
		{"comparison", "What is the difference between the ollama and the offline embedder?", TypeComplexQuery},
		{"enumerated request", "Please explain:\n1. how ranking works\n2. how the budget is computed\n3. what the manifest contains", TypeComplexQuery},
		{"five part analytic", fivePartQuestion, TypeComplexQuery},
		{"markdown heading question is prose", "## What is Loom?\n\nLoom is a local-first knowledge workbench.", TypeProse},

		// Prose.
		{"plain paragraph", "Loom keeps a graph of concept nodes and content nodes. Each query is ranked against the graph.", TypeProse},
		{"rhetorical question in paragraph", "Why does this matter? Because a pasted log should not drown the question. The split keeps them apart.", TypeProse},
		{"markdown list", "- Concept nodes name ideas.\n- Content nodes hold text.\n- Edges carry a weight and a reason.\n", TypeProse},
		{"markdown with inline code", "Call `Classify(text)` to get a `Classification`; it never allocates much and never panics.", TypeProse},
		{"markdown section with small fenced block", markdownSection, TypeProse},
		{"markdown table", "| Parameter | Start |\n|---|---|\n| similarity | 0.8 |\n| reserve | 30% |\n", TypeProse},
		{"style guide", longProse(3000), TypeProse},

		// Code.
		{"go code", goCode, TypeCode},
		{"python code", pythonCode, TypeCode},
		{"fenced go only", "```go\n" + goCode + "```\n", TypeCode},
		{"javascript", "const nodes = await load(dir);\nfor (const n of nodes) {\n  if (n.score > 0.5) {\n    keep.push(n);\n  }\n}\nexport default keep;\n", TypeCode},
		{"shell session", "$ go test ./...\n$ go vet ./...\n$ gofmt -l .\n", TypeCode},

		// Logs.
		{"log lines", logLines(20), TypeLogs},
		{"go panic", goPanic, TypeLogs},
		{"python traceback", pythonTraceback, TypeLogs},
		{"java trace", javaTrace, TypeLogs},
		{"javascript trace", jsTrace, TypeLogs},
		{"level-only logs", "INFO starting loomd\nWARN embedder slow\nERROR index corrupt\n", TypeLogs},
		{"logfmt", "ts=2026-11-22T04:00:00Z level=info msg=\"ingest started\" docs=12\nts=2026-11-22T04:00:02Z level=error msg=\"embed failed\" doc=7\n", TypeLogs},
		{"fenced log", "```\n" + logLines(10) + "```\n", TypeLogs},

		// Structured.
		{"pretty json", prettyJSON, TypeStructured},
		{"minified json", `{"a":1,"b":[true,false,null],"c":{"d":"e"}}`, TypeStructured},
		{"json array", "[1, 2, 3]", TypeStructured},
		{"truncated json", prettyJSON[:120], TypeStructured},
		{"xml document", xmlDoc, TypeStructured},
		{"html", "<!DOCTYPE html>\n<html>\n<body>\n<p>Hello</p>\n</body>\n</html>", TypeStructured},

		// Pasted data.
		{"csv", csvData, TypePastedData},
		{"tsv", "id\ttype\ttokens\n1\tconcept\t120\n2\tcontent\t812\n", TypePastedData},
		{"yaml", yamlData, TypePastedData},
		{"numbers", "0.82 0.77 0.41\n0.33 0.12 0.98\n1.00 0.50 0.25\n", TypePastedData},
		{"env file", "LOOM_HOME=/data/loom\nOLLAMA_HOST=http://localhost:11434\n", TypePastedData},

		// Mixed.
		{"question with log", "Why does the ingest worker crash?\n\n" + logLines(6), TypeMixed},
		{"question with code", "Why does this loop never stop?\n\n" + goCode, TypeMixed},
		{"question with json", "Is this manifest valid?\n" + prettyJSON, TypeMixed},
		{"question with traceback", "What does this error mean?\n\n" + pythonTraceback, TypeMixed},
		{"request with csv", "Summarize this table.\n" + csvData, TypeMixed},
		{"no dominant kind", strings.Repeat("The ranking combines several signals in one score.\n", 3) + goCode + logLines(4), TypeMixed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Classify(tt.text)
			assert.Equal(t, tt.want, got.Type, "signals: %+v", got.Signals)
			assert.GreaterOrEqual(t, got.Complexity, 0.0)
			assert.LessOrEqual(t, got.Complexity, 1.0)
		})
	}
}

const fivePartQuestion = `I'm evaluating Loom for a team wiki. Could you analyse five things:
1. How does ranking weigh recency against semantic similarity?
2. What happens to stale concept nodes over long sessions?
3. How is the output reservation chosen for complex queries?
4. Compare the ollama and offline embedders in accuracy and latency.
5. Which storage limits should we expect with ten thousand documents?`

func TestClassifySignals(t *testing.T) {
	t.Run("markdown section reports its code block", func(t *testing.T) {
		s := Classify(markdownSection).Signals
		assert.Equal(t, 1, s.CodeBlocks)
		assert.Equal(t, 2, s.CodeLines)
		assert.Equal(t, 1, s.Headings)
		assert.Equal(t, 3, s.ListItems)
		assert.Greater(t, s.Shares.Prose, 0.8)
	})
	t.Run("log lines and timestamps", func(t *testing.T) {
		s := Classify(logLines(30)).Signals
		assert.Equal(t, 30, s.Lines)
		assert.Equal(t, 30, s.LogLines)
		assert.Equal(t, 30, s.Timestamps)
		assert.Equal(t, 1.0, s.Shares.Logs)
	})
	t.Run("stack frames", func(t *testing.T) {
		assert.Equal(t, 6, Classify(goPanic).Signals.StackTraceLines)
		assert.Equal(t, 8, Classify(pythonTraceback).Signals.StackTraceLines)
		assert.Equal(t, 7, Classify(javaTrace).Signals.StackTraceLines)
		assert.Equal(t, 4, Classify(jsTrace).Signals.StackTraceLines)
	})
	t.Run("questions and interrogatives", func(t *testing.T) {
		s := Classify("What is X? Why? Tell me more. Is it fast").Signals
		assert.Equal(t, 2, s.QuestionMarks)
		assert.Equal(t, 3, s.Interrogatives)
		assert.Equal(t, 1, s.Requests)
		assert.Equal(t, 4, s.Sentences)
	})
	t.Run("question mark inside code or url does not count", func(t *testing.T) {
		s := Classify("See https://example.com/?q=loom for details.").Signals
		assert.Zero(t, s.QuestionMarks)
	})
	t.Run("lexical measures", func(t *testing.T) {
		s := Classify("the cat saw the other cat").Signals
		assert.Equal(t, 6, s.Words)
		assert.InDelta(t, 4.0/6, s.LexicalDiversity, 1e-9)
		assert.InDelta(t, 20.0/6, s.AvgWordLen, 1e-9)
		assert.InDelta(t, 7.0/6, s.SyllablesPerWord, 1e-9) // o-ther
	})
	t.Run("case-insensitive diversity", func(t *testing.T) {
		assert.Equal(t, 0.5, Classify("Loom loom LOOM graph Graph GRAPH").Signals.LexicalDiversity*1.5)
	})
	t.Run("json and xml flags", func(t *testing.T) {
		assert.True(t, Classify(prettyJSON).Signals.JSONLike)
		assert.True(t, Classify(xmlDoc).Signals.XMLLike)
		assert.False(t, Classify(markdownSection).Signals.JSONLike)
		assert.True(t, Classify("Here it is:\n"+prettyJSON).Signals.JSONLike, "big block")
	})
	t.Run("whitespace", func(t *testing.T) {
		s := Classify("a\n\n  b\n\tc").Signals
		assert.Equal(t, 4, s.Lines)
		assert.Equal(t, 1, s.BlankLines)
		assert.Equal(t, 2, s.IndentedLines)
		assert.InDelta(t, 6.0/9, s.WhitespaceRatio, 1e-9)
	})
	t.Run("shares sum to one", func(t *testing.T) {
		for _, text := range []string{markdownSection, goCode, "Why?\n" + logLines(5) + csvData} {
			sh := Classify(text).Signals.Shares
			assert.InDelta(t, 1, sh.Prose+sh.Code+sh.Logs+sh.Data+sh.Structured, 1e-9)
		}
	})
}

func TestComplexity(t *testing.T) {
	simple := Classify("What is X?").Complexity
	medium := Classify("How do I configure the embedder in Loom?").Complexity
	fivePart := Classify(fivePartQuestion).Complexity
	pasteWithQuestion := Classify("Why does the ingest worker crash on startup since the upgrade?\n\n" + logLines(60)).Complexity

	t.Run("ordering", func(t *testing.T) {
		assert.Less(t, simple, medium)
		assert.Less(t, medium, fivePart)
		assert.Less(t, fivePart, pasteWithQuestion)
	})
	t.Run("ranges", func(t *testing.T) {
		assert.Less(t, simple, 0.2)
		assert.Greater(t, fivePart, 0.4)
		assert.Less(t, fivePart, 0.8)
		assert.Greater(t, pasteWithQuestion, 0.5)
	})
	t.Run("more questions more complex", func(t *testing.T) {
		one := Classify("How does ranking work?").Complexity
		two := Classify("How does ranking work? How is the budget split?").Complexity
		three := Classify("How does ranking work? How is the budget split? And also, compare it to RAG?").Complexity
		assert.Less(t, one, two)
		assert.Less(t, two, three)
	})
	t.Run("blank input is zero", func(t *testing.T) {
		assert.Zero(t, Classify("").Complexity)
		assert.Zero(t, Classify(" \n\t\r\n").Complexity)
	})
}

func TestContentTypeText(t *testing.T) {
	names := map[ContentType]string{
		TypeSimpleQuery: "simple_query", TypeComplexQuery: "complex_query", TypeProse: "prose",
		TypePastedData: "pasted_data", TypeCode: "code", TypeLogs: "logs", TypeStructured: "structured", TypeMixed: "mixed",
	}
	for typ, name := range names {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, name, typ.String())
			b, err := typ.MarshalText()
			require.NoError(t, err)
			assert.Equal(t, name, string(b))
			var back ContentType
			require.NoError(t, back.UnmarshalText(b))
			assert.Equal(t, typ, back)
		})
	}
	t.Run("unknown", func(t *testing.T) {
		assert.Equal(t, "ContentType(200)", ContentType(200).String())
		_, err := ContentType(200).MarshalText()
		assert.Error(t, err)
		var c ContentType
		assert.Error(t, c.UnmarshalText([]byte("poetry")))
	})
	t.Run("json", func(t *testing.T) {
		b, err := json.Marshal(Classify("What is X?"))
		require.NoError(t, err)
		assert.Contains(t, string(b), `"type":"simple_query"`)
		var back Classification
		require.NoError(t, json.Unmarshal(b, &back))
		assert.Equal(t, TypeSimpleQuery, back.Type)
	})
	t.Run("is query", func(t *testing.T) {
		assert.True(t, TypeSimpleQuery.IsQuery())
		assert.True(t, TypeComplexQuery.IsQuery())
		assert.False(t, TypeMixed.IsQuery())
	})
}
