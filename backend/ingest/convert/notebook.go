package convert

import (
	"encoding/json"
	"fmt"
	"strings"
)

// MaxOutputLines is how many lines of one cell output a notebook's
// markdown keeps.
const MaxOutputLines = 20

// multiline is a notebook text field, which nbformat lets be one string or
// a list of lines.
type multiline string

// UnmarshalJSON accepts a string, a list of strings or null.
func (m *multiline) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*m = multiline(s)
		return nil
	}
	var lines []string
	if err := json.Unmarshal(b, &lines); err != nil {
		return fmt.Errorf("a text is neither a string nor a list of strings")
	}
	*m = multiline(strings.Join(lines, ""))
	return nil
}

type nbOutput struct {
	OutputType string                     `json:"output_type"`
	Text       multiline                  `json:"text"`
	Data       map[string]json.RawMessage `json:"data"`
	EName      string                     `json:"ename"`
	EValue     string                     `json:"evalue"`
}

type nbCell struct {
	CellType string     `json:"cell_type"`
	Source   multiline  `json:"source"`
	Outputs  []nbOutput `json:"outputs"`
}

// nbMeta is the notebook metadata Loom reads; it is decoded on its own,
// so that an odd field there does not make the notebook unreadable.
type nbMeta struct {
	Kernelspec struct {
		Language string `json:"language"`
	} `json:"kernelspec"`
	LanguageInfo struct {
		Name string `json:"name"`
	} `json:"language_info"`
	Title   string            `json:"title"`
	Authors []json.RawMessage `json:"authors"`
}

// Notebook converts a Jupyter notebook (nbformat 4): markdown cells as
// they are; code cells as fenced blocks in the kernel's language
// (metadata.kernelspec.language, else language_info.name); their text
// outputs — streams, results, errors — as "text" blocks of at most
// MaxOutputLines lines each, and images as "[image output]". Raw cells are
// left out. The title and authors come from the notebook's metadata when
// it has them (Jupyter Book and JupyterLab write them there).
func Notebook(data []byte) (*Doc, error) {
	var nb struct {
		NBFormat   int               `json:"nbformat"`
		Cells      []json.RawMessage `json:"cells"`
		Worksheets json.RawMessage   `json:"worksheets"`
		Metadata   json.RawMessage   `json:"metadata"`
	}
	if len(strings.TrimSpace(string(data))) == 0 {
		return nil, bad("is empty")
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		return nil, badWrap(err, "is not a Jupyter notebook (its JSON cannot be read)")
	}
	if nb.NBFormat != 0 && nb.NBFormat < 4 || nb.Worksheets != nil {
		return nil, bad("is a Jupyter notebook in format %d, which Loom does not read: open it in Jupyter and save it again (format 4)", nb.NBFormat)
	}
	if nb.Cells == nil {
		return nil, bad("is not a Jupyter notebook: it has no \"cells\" list")
	}
	var meta nbMeta
	_ = json.Unmarshal(nb.Metadata, &meta) // what cannot be read is simply not known
	lang := meta.Kernelspec.Language
	if lang == "" {
		lang = meta.LanguageInfo.Name
	}
	if !isLanguageName(lang) {
		lang = ""
	}
	doc := &Doc{Title: collapseSpace(meta.Title)}
	for _, raw := range meta.Authors {
		var name string
		var person struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(raw, &name) != nil && json.Unmarshal(raw, &person) == nil {
			name = person.Name
		}
		if name = collapseSpace(name); name != "" {
			doc.Meta.Authors = appendNew(doc.Meta.Authors, name)
		}
	}
	var b strings.Builder
	for i, raw := range nb.Cells {
		var cell nbCell
		if err := json.Unmarshal(raw, &cell); err != nil {
			return nil, badWrap(err, "is a Jupyter notebook whose cell %d cannot be read", i+1)
		}
		writeCell(&b, cell, lang)
	}
	if md := strings.TrimRight(b.String(), "\n"); md != "" {
		doc.Markdown = md + "\n"
	}
	return doc, nil
}

// writeCell appends one cell's markdown.
func writeCell(b *strings.Builder, cell nbCell, lang string) {
	source := strings.ReplaceAll(string(cell.Source), "\r\n", "\n")
	switch cell.CellType {
	case "markdown":
		if s := strings.TrimSpace(source); s != "" {
			b.WriteString(s + "\n\n")
		}
	case "code":
		if s := strings.Trim(source, "\n"); strings.TrimSpace(s) != "" {
			writeFence(b, lang, s)
		}
		for _, out := range cell.Outputs {
			switch text := outputText(out); {
			case text == "[image output]":
				b.WriteString("[image output]\n\n")
			case strings.TrimSpace(text) != "":
				writeFence(b, "text", truncateLines(strings.Trim(text, "\n"), MaxOutputLines))
			}
		}
	}
}

// outputText is what an output says as text: a stream's text, a result's
// text/plain, an error's name and value; "[image output]" for an image.
func outputText(out nbOutput) string {
	switch out.OutputType {
	case "stream":
		return string(out.Text)
	case "error":
		return strings.TrimSpace(out.EName + ": " + out.EValue)
	case "execute_result", "display_data":
		for mime := range out.Data {
			if strings.HasPrefix(mime, "image/") {
				return "[image output]"
			}
		}
		var text multiline
		if raw, ok := out.Data["text/plain"]; ok && json.Unmarshal(raw, &text) == nil {
			return string(text)
		}
	}
	return ""
}

// truncateLines keeps the first n lines of s and says how many it left.
func truncateLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) <= n {
		return s
	}
	return strings.Join(lines[:n], "\n") + fmt.Sprintf("\n… (%d more lines)", len(lines)-n)
}

// writeFence writes a fenced code block whose fence is longer than any
// run of backticks in the code.
func writeFence(b *strings.Builder, info, code string) {
	longest, run := 0, 0
	for i := 0; i < len(code); i++ {
		if code[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	b.WriteString(fence + info + "\n" + code + "\n" + fence + "\n\n")
}
