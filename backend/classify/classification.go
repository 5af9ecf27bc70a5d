package classify

import "fmt"

// ContentType is the shape of a text. The zero value is TypeProse, which is
// also what empty input is classified as.
type ContentType uint8

// The content types, in no particular order; see the package comment for the
// precedence between them.
const (
	// TypeProse is running text: paragraphs, markdown headings, lists, tables.
	TypeProse ContentType = iota
	// TypeSimpleQuery is a short question or request with a single part.
	TypeSimpleQuery
	// TypeComplexQuery is a question with several parts: several questions,
	// an enumeration, a comparison, or a long request.
	TypeComplexQuery
	// TypePastedData is tabular or key/value data (CSV, TSV, YAML-ish
	// "key: value", numbers), or text with no words at all.
	TypePastedData
	// TypeCode is source code, fenced or not.
	TypeCode
	// TypeLogs is log output and stack traces.
	TypeLogs
	// TypeStructured is a JSON or XML/HTML document.
	TypeStructured
	// TypeMixed is a query with a pasted payload, or text where no single
	// kind dominates.
	TypeMixed
)

var typeNames = [...]string{
	TypeProse:        "prose",
	TypeSimpleQuery:  "simple_query",
	TypeComplexQuery: "complex_query",
	TypePastedData:   "pasted_data",
	TypeCode:         "code",
	TypeLogs:         "logs",
	TypeStructured:   "structured",
	TypeMixed:        "mixed",
}

// String returns the snake_case name used in manifests and by the UI,
// e.g. "simple_query".
func (t ContentType) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return fmt.Sprintf("ContentType(%d)", uint8(t))
}

// IsQuery reports whether t is one of the two query types.
func (t ContentType) IsQuery() bool { return t == TypeSimpleQuery || t == TypeComplexQuery }

// MarshalText encodes t as its String name, so it reads well in JSON.
func (t ContentType) MarshalText() ([]byte, error) {
	if int(t) >= len(typeNames) {
		return nil, fmt.Errorf("classify: marshal unknown content type %d", uint8(t))
	}
	return []byte(typeNames[t]), nil
}

// UnmarshalText decodes a name written by MarshalText.
func (t *ContentType) UnmarshalText(b []byte) error {
	for i, name := range typeNames {
		if name == string(b) {
			*t = ContentType(i)
			return nil
		}
	}
	return fmt.Errorf("classify: unmarshal content type %q: unknown name", b)
}

// Classification is what Classify reports about a text.
type Classification struct {
	// Type is the shape of the text.
	Type ContentType `json:"type"`
	// Complexity estimates, in [0,1], how much work answering or using the
	// text takes; the budget's output reservation scales with it.
	Complexity float64 `json:"complexity"`
	// Chunk recommends splitting the text before processing: it is longer
	// than the chunk threshold and made of structurally different parts.
	// Split returns more than one unit exactly when Chunk is true (for the
	// same options).
	Chunk bool `json:"chunk"`
	// Signals are the raw measurements the decision was made from.
	Signals Signals `json:"signals"`
}

// Signals are the raw measurements behind a Classification, exported for the
// UI and for tests. Line counts refer to physical lines ('\n'-separated; a
// trailing '\r' is ignored).
type Signals struct {
	// Bytes is the length of the text in bytes.
	Bytes int `json:"bytes"`
	// Lines counts physical lines; a final line without '\n' counts.
	Lines int `json:"lines"`
	// Words counts runs of letters, digits and '_' (any script), with inner
	// apostrophes ("don't" is one word).
	Words int `json:"words"`

	// CodeBlocks counts fenced (``` or ~~~) blocks.
	CodeBlocks int `json:"code_blocks"`
	// CodeLines counts lines that are code: lines inside fences (except
	// fence markers, log lines and the contents of json/xml/yaml/csv
	// fences) and unfenced lines that look like code — trailing braces or
	// semicolons, keywords such as func/def/class/return/import at the
	// start, operators, calls, comment markers, indentation — or sit
	// between two such lines.
	CodeLines int `json:"code_lines"`

	// LogLines counts lines that look like log records: a timestamp near the
	// start or a level word (ERROR, WARN, INFO, DEBUG...) leading the line or
	// in brackets, or a level= key.
	LogLines int `json:"log_lines"`
	// Timestamps counts lines carrying an ISO-8601, Go log, syslog, Apache
	// common-log, glog or bare clock timestamp near their start.
	Timestamps int `json:"timestamps"`

	// StackTraceLines counts Go, Java, Python and JavaScript stack frames and
	// the lines that introduce them (panic:, goroutine N [...]:, Traceback,
	// Caused by:, XyzError: ...).
	StackTraceLines int `json:"stack_trace_lines"`

	// JSONLike is true when the whole text is JSON, or JSON blocks hold at
	// least half of its bytes.
	JSONLike bool `json:"json_like"`
	// XMLLike is true when the whole text is an XML/HTML document, or markup
	// lines hold at least half of its bytes.
	XMLLike bool `json:"xml_like"`

	// LexicalDiversity is unique words / words (case-insensitive), 0 when
	// there are no words.
	LexicalDiversity float64 `json:"lexical_diversity"`
	// AvgWordLen is the mean word length in characters.
	AvgWordLen float64 `json:"avg_word_len"`
	// SyllablesPerWord approximates syllables by counting vowel groups
	// (a, e, i, o, u, y), dropping a silent final e.
	SyllablesPerWord float64 `json:"syllables_per_word"`

	// QuestionMarks counts sentences in prose lines that end in '?' ("??"
	// counts once; a '?' inside code or a URL does not count).
	QuestionMarks int `json:"question_marks"`
	// Interrogatives counts prose sentences opening with an interrogative
	// word: who, what, when, where, why, how, which, can, could, does, do,
	// did, is, are, was, were, should, would, will, has, have, and their
	// negative contractions. A leading "so", "and", "but", "ok"... is skipped.
	Interrogatives int `json:"interrogatives"`
	// Requests counts prose sentences opening with a request verb (explain,
	// describe, compare, list, summarize, show, tell, give, please...).
	Requests int `json:"requests"`
	// Sentences counts sentences in prose lines (headings and list items
	// count as one each at least).
	Sentences int `json:"sentences"`
	// MultiPartCues counts words that mark a multi-part request: compare,
	// versus, vs, difference, pros, trade-off, also, additionally,
	// furthermore, moreover, secondly, finally, "as well as", "in addition".
	// Only the first 8 KiB of prose are examined.
	MultiPartCues int `json:"multi_part_cues"`
	// Headings counts markdown ATX headings ("## Title").
	Headings int `json:"headings"`
	// ListItems counts markdown list items (-, *, +, 1., 1), a)).
	ListItems int `json:"list_items"`

	// WhitespaceRatio is whitespace bytes / bytes.
	WhitespaceRatio float64 `json:"whitespace_ratio"`
	// BlankLines counts lines with nothing but whitespace.
	BlankLines int `json:"blank_lines"`
	// IndentedLines counts non-blank lines starting with a space or tab.
	IndentedLines int `json:"indented_lines"`
	// NonTextBytes counts invalid UTF-8 bytes and control characters other
	// than tab, newline, carriage return, vertical tab and form feed.
	NonTextBytes int `json:"non_text_bytes"`

	// Shares splits the non-blank bytes between the kinds of line.
	Shares Shares `json:"shares"`
}

// Shares are fractions of the non-blank bytes (leading and trailing
// whitespace of each line excluded) held by each kind of line; they sum to 1,
// or are all 0 for blank input. Lines inside a fenced block all take the kind
// that dominates the block.
type Shares struct {
	Prose      float64 `json:"prose"`      // paragraphs, headings, lists, tables
	Code       float64 `json:"code"`       // code lines and fences
	Logs       float64 `json:"logs"`       // log records and stack traces
	Data       float64 `json:"data"`       // CSV/TSV rows, key: value pairs, numbers
	Structured float64 `json:"structured"` // JSON blocks and XML/HTML markup
}
