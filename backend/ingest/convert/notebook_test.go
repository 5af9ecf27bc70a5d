package convert

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNotebookCellsAndOutputs(t *testing.T) {
	d := convertGolden(t, "tokens.ipynb", Notebook)
	assert.Equal(t, "Token counts by section", d.Title)
	assert.Equal(t, []string{"Rin Sato", "Lea Brandt"}, d.Meta.Authors, "authors as objects and as strings")
	md := d.Markdown
	assert.True(t, strings.HasPrefix(md, "# Token counts by section\n\nThis notebook counts"), "a markdown cell given as a list of lines")
	assert.Contains(t, md, "```python\nimport collections\n\nsections = {", "code in the kernel's language")
	assert.Contains(t, md, "```python\ntotal\n```\n\n```text\n910\n```\n", "a source given as one string, and its result")
	assert.Contains(t, md, "section 20: 200 tokens\n… (5 more lines)\n```", "25 lines of output cut to 20")
	assert.NotContains(t, md, "section 21:")
	assert.Contains(t, md, "[image output]\n")
	assert.NotContains(t, md, "iVBORw0KGgo", "no image data")
	assert.NotContains(t, md, "<Figure size", "an image's text/plain stand-in is left out")
	assert.Contains(t, md, "```text\nKeyError: 'appendix'\n```")
	assert.NotContains(t, md, "newpage", "raw cells are left out")
	assert.Contains(t, md, "````python\nprint(\"```fenced``` text survives\")\n````", "a fence longer than the backticks inside")
	assert.NotContains(t, md, "```python\n\n```", "an empty code cell writes nothing")
	assert.True(t, strings.HasSuffix(md, "see [the notes](notes/method.md).\n"))
}

func TestNotebookLanguage(t *testing.T) {
	cases := []struct{ meta, fence string }{
		{`{"kernelspec": {"language": "R"}, "language_info": {"name": "python"}}`, "```R"},
		{`{"language_info": {"name": "julia"}}`, "```julia"},
		{`{}`, "```"},
		{`{"kernelspec": {"language": 3}}`, "```"},
		{`{"kernelspec": {"language": "not a language name"}}`, "```"},
	}
	for _, c := range cases {
		nb := `{"nbformat": 4, "metadata": ` + c.meta + `, "cells": [{"cell_type": "code", "source": "x", "outputs": []}]}`
		d, err := Notebook([]byte(nb))
		require.NoError(t, err, c.meta)
		assert.Equal(t, c.fence+"\nx\n```\n", d.Markdown, c.meta)
	}
}

func TestNotebookProblems(t *testing.T) {
	cases := []struct {
		name, data, message string
	}{
		{"empty", "", "is empty"},
		{"not JSON", "print('hello')", "is not a Jupyter notebook (its JSON cannot be read)"},
		{"JSON without cells", `{"name": "package.json"}`, `is not a Jupyter notebook: it has no "cells" list`},
		{"format 3", `{"nbformat": 3, "worksheets": [{"cells": []}]}`, "is a Jupyter notebook in format 3, which Loom does not read"},
		{"a cell with a bad source", `{"nbformat": 4, "cells": [{"cell_type": "markdown", "source": "ok"}, {"cell_type": "code", "source": 42}]}`, "is a Jupyter notebook whose cell 2 cannot be read"},
		{"a truncated notebook", `{"nbformat": 4, "cells": [{"cell_type": "markdown", "source": "cut`, "is not a Jupyter notebook (its JSON cannot be read)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := Notebook([]byte(c.data))
			assert.Nil(t, d)
			requireBadFile(t, err, c.message)
		})
	}
}
