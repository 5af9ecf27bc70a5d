package classify

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// requireCovers checks the Split contract: units in order, contiguous,
// covering text exactly, each Text the slice it names.
func requireCovers(t *testing.T, text string, units []Unit) {
	t.Helper()
	require.NotEmpty(t, units)
	assert.Equal(t, 0, units[0].Start)
	assert.Equal(t, len(text), units[len(units)-1].End)
	var b strings.Builder
	for i, u := range units {
		require.LessOrEqual(t, u.Start, u.End)
		if i > 0 {
			require.Equal(t, units[i-1].End, u.Start, "unit %d not contiguous", i)
		}
		require.Equal(t, text[u.Start:u.End], u.Text)
		b.WriteString(u.Text)
	}
	assert.Equal(t, text, b.String())
}

func TestSplit(t *testing.T) {
	question := "Why does the ingest worker crash on startup since the upgrade?\n\n"
	logs := logLines(60)

	t.Run("question then 60 log lines", func(t *testing.T) {
		text := question + logs
		require.Greater(t, len(text), DefaultChunkThreshold)
		units := Split(text)
		requireCovers(t, text, units)
		require.Len(t, units, 2)
		assert.Equal(t, TypeSimpleQuery, units[0].Class.Type)
		assert.Equal(t, question, units[0].Text)
		assert.Equal(t, len(question), units[1].Start)
		assert.Equal(t, TypeLogs, units[1].Class.Type)
		assert.Equal(t, logs, units[1].Text)

		whole := Classify(text)
		assert.Equal(t, TypeMixed, whole.Type)
		assert.True(t, whole.Chunk)
		assert.False(t, units[0].Class.Chunk)
		assert.False(t, units[1].Class.Chunk)
	})
	t.Run("question, logs, question", func(t *testing.T) {
		text := question + logs + "\nOr is it the embedder timing out?\n"
		units := Split(text)
		requireCovers(t, text, units)
		require.Len(t, units, 3)
		assert.Equal(t, []ContentType{TypeSimpleQuery, TypeLogs, TypeSimpleQuery},
			[]ContentType{units[0].Class.Type, units[1].Class.Type, units[2].Class.Type})
	})
	t.Run("logs then question", func(t *testing.T) {
		text := logs + "\nAny idea what is going on here?\n"
		units := Split(text)
		requireCovers(t, text, units)
		require.Len(t, units, 2)
		assert.Equal(t, TypeLogs, units[0].Class.Type)
		assert.Equal(t, TypeSimpleQuery, units[1].Class.Type)
	})
	t.Run("intro, trace, question", func(t *testing.T) {
		text := "I get this panic when I open a workspace:\n\n" + strings.Repeat(goPanic, 8) +
			"\nIs the index corrupt, or is it a bug?\n"
		units := Split(text)
		requireCovers(t, text, units)
		// The short intro is not a question: it stays with the trace it
		// introduces, as does the trailing "exit status 2".
		require.Len(t, units, 2)
		assert.Equal(t, TypeLogs, units[0].Class.Type)
		assert.Equal(t, "Is the index corrupt, or is it a bug?\n", units[1].Text)
		assert.True(t, units[1].Class.Type.IsQuery())
	})
	t.Run("crlf line endings", func(t *testing.T) {
		text := strings.ReplaceAll(question+logs, "\n", "\r\n")
		units := Split(text)
		requireCovers(t, text, units)
		require.Len(t, units, 2)
		assert.True(t, strings.HasSuffix(units[0].Text, "?\r\n\r\n"))
		assert.Equal(t, TypeLogs, units[1].Class.Type)
	})
	t.Run("prose around a big code block", func(t *testing.T) {
		intro := longProse(600)
		text := intro + "```go\n" + strings.Repeat(goCode, 3) + "```\n\n" + longProse(400)
		units := Split(text)
		requireCovers(t, text, units)
		require.Len(t, units, 3)
		assert.Equal(t, TypeProse, units[0].Class.Type)
		assert.Equal(t, TypeCode, units[1].Class.Type)
		assert.True(t, strings.HasPrefix(units[1].Text, "```go\n"))
		assert.True(t, strings.HasSuffix(strings.TrimSpace(units[1].Text), "```"))
		assert.Equal(t, TypeProse, units[2].Class.Type)
	})
	t.Run("question with json", func(t *testing.T) {
		text := "Which of these nodes should be pruned?\n" + strings.Repeat(prettyJSON, 6)
		units := Split(text)
		requireCovers(t, text, units)
		require.Len(t, units, 2)
		assert.Equal(t, TypeSimpleQuery, units[0].Class.Type)
		assert.Equal(t, TypeStructured, units[1].Class.Type)
	})

	for _, tt := range []struct {
		name string
		text string
	}{
		{"short mixed input", question + logLines(5)},
		{"short code with question", "Why does this loop never stop?\n" + goCode},
		{"long homogeneous prose", longProse(20000)},
		{"long logs", logLines(400)},
		{"long code", strings.Repeat(goCode, 20)},
		{"small intro folds into logs", "Here is the log:\n" + logs},
		{"markdown section with a small block", markdownSection + longProse(1500)},
		{"empty", ""},
		{"whitespace", strings.Repeat(" \n", 2000)},
	} {
		t.Run("one unit: "+tt.name, func(t *testing.T) {
			units := Split(tt.text)
			requireCovers(t, tt.text, units)
			assert.Len(t, units, 1)
			assert.False(t, Classify(tt.text).Chunk)
		})
	}

	t.Run("short never splits whatever the structure", func(t *testing.T) {
		text := "Why?\n" + logLines(4) + "```\nx := 1\n```\n" + csvData + prettyJSON
		require.LessOrEqual(t, len(text), DefaultChunkThreshold)
		assert.Len(t, Split(text), 1)
		assert.False(t, Classify(text).Chunk)
	})
}

func TestSplitOptions(t *testing.T) {
	text := "Why does the ingest worker crash?\n" + logLines(8)
	require.Less(t, len(text), DefaultChunkThreshold)

	t.Run("lower threshold splits", func(t *testing.T) {
		units := Split(text, WithChunkThreshold(100))
		requireCovers(t, text, units)
		assert.Len(t, units, 2)
		assert.True(t, New(WithChunkThreshold(100)).Classify(text).Chunk)
	})
	t.Run("zero threshold splits", func(t *testing.T) {
		assert.Len(t, Split(text, WithChunkThreshold(-5)), 2)
	})
	t.Run("higher threshold keeps long input whole", func(t *testing.T) {
		long := "Why?\n" + logLines(60)
		assert.Len(t, Split(long, WithChunkThreshold(1<<20)), 1)
	})
	t.Run("min unit bytes", func(t *testing.T) {
		long := longProse(1500) + "```go\n" + goCode + "```\n" + longProse(1500)
		assert.Len(t, Split(long), 3)
		assert.Len(t, Split(long, WithMinUnitBytes(10000)), 1)
	})
	t.Run("max query bytes", func(t *testing.T) {
		assert.Equal(t, TypeProse, New(WithMaxQueryBytes(5)).Classify("What is a concept node?").Type)
	})
	t.Run("nil option", func(t *testing.T) {
		assert.Len(t, Split(text, nil), 1)
	})
}

// TestChunkMatchesSplit checks that Classify recommends chunking exactly when
// Split splits.
func TestChunkMatchesSplit(t *testing.T) {
	for name, text := range map[string]string{
		"question+logs": "Why?\n" + logLines(60),
		"prose":         longProse(5000),
		"section":       markdownSection,
		"go":            strings.Repeat(goCode, 10),
		"mixed":         longProse(800) + "```go\n" + strings.Repeat(goCode, 3) + "```\n" + logLines(30) + csvData,
	} {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, len(Split(text)) > 1, Classify(text).Chunk)
		})
	}
}
