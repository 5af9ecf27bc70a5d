package ingest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// beirRecord is one line of a BEIR corpus.jsonl.
type beirRecord struct {
	ID    json.RawMessage `json:"_id"`
	Title string          `json:"title"`
	Text  string          `json:"text"`
}

// ParseBEIR reads a BEIR corpus: each line is one document (title + text)
// whose reference is its _id. A malformed line is reported with its line
// number; the other lines still parse (the returned error is then a
// *FileError listing how many lines failed, alongside the good documents).
func ParseBEIR(key, path, collection string, data []byte, opts Options) ([]Document, error) {
	opts.defaults()
	data, err := decodeText(path, data)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &FileError{path, "file is empty: there is nothing to ingest"}
	}
	var docs []Document
	var bad []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	line := 0
	for sc.Scan() {
		line++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		if !utf8.Valid(raw) {
			bad = append(bad, fmt.Sprintf("line %d is not valid UTF-8", line))
			continue
		}
		var r beirRecord
		if err := json.Unmarshal(raw, &r); err != nil {
			bad = append(bad, fmt.Sprintf("line %d is not a JSON object (%v)", line, err))
			continue
		}
		id := strings.Trim(string(r.ID), `"`)
		if id == "" || id == "null" {
			bad = append(bad, fmt.Sprintf("line %d has no _id", line))
			continue
		}
		body := strings.TrimSpace(r.Text)
		title := strings.TrimSpace(r.Title)
		if body == "" && title == "" {
			bad = append(bad, fmt.Sprintf("line %d (_id %s) has neither title nor text", line, id))
			continue
		}
		text := body
		if title != "" {
			text = title + "\n\n" + body
		}
		d := Document{
			Key: key + "#" + id, Path: id, Collection: collection, Format: FormatBEIR, Title: title,
			Hash: HashBytes(raw), Bytes: len(raw),
			Sections: []Section{{Ref: id, Text: text, Parent: -1, Part: 1, Parts: 1, LineStart: line, LineEnd: line}},
		}
		docs = append(docs, d)
	}
	if err := sc.Err(); err != nil {
		return docs, &FileError{path, fmt.Sprintf("cannot read line %d: %v", line+1, err)}
	}
	if len(bad) > 0 {
		msg := bad[0]
		if len(bad) > 1 {
			msg = fmt.Sprintf("%d bad lines, first: %s", len(bad), bad[0])
		}
		return docs, &FileError{path, msg}
	}
	if len(docs) == 0 {
		return nil, &FileError{path, "has no documents"}
	}
	return docs, nil
}
