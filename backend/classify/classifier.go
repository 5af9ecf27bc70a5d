package classify

// Default tuning values. Seed §12 lists the chunking threshold as a parameter
// to be found empirically; these are the starting hypotheses.
const (
	// DefaultChunkThreshold is the size in bytes above which structurally
	// different parts are split into separate units.
	DefaultChunkThreshold = 1200
	// DefaultMinUnitBytes is the smallest part, in non-blank bytes, that
	// stands as its own unit; smaller parts join a neighbour. A prose part
	// that reads as a question stands on its own whatever its size.
	DefaultMinUnitBytes = 200
	// DefaultMaxQueryBytes is the largest prose part, in non-blank bytes,
	// that can still read as a query.
	DefaultMaxQueryBytes = 1024
)

// Option configures a Classifier.
type Option func(*config)

type config struct {
	chunkThreshold int
	minUnitBytes   int
	maxQueryBytes  int
}

func defaultConfig() config {
	return config{
		chunkThreshold: DefaultChunkThreshold,
		minUnitBytes:   DefaultMinUnitBytes,
		maxQueryBytes:  DefaultMaxQueryBytes,
	}
}

// WithChunkThreshold sets the size in bytes an input must exceed before it
// is split (default DefaultChunkThreshold). Negative values count as 0.
func WithChunkThreshold(n int) Option {
	return func(c *config) { c.chunkThreshold = max(n, 0) }
}

// WithMinUnitBytes sets the smallest part, in non-blank bytes, that Split
// keeps as its own unit (default DefaultMinUnitBytes). Values below 1 count
// as 1.
func WithMinUnitBytes(n int) Option {
	return func(c *config) { c.minUnitBytes = max(n, 1) }
}

// WithMaxQueryBytes sets the largest prose part, in non-blank bytes, that can
// read as a query (default DefaultMaxQueryBytes). Negative values count as 0,
// which turns query detection off.
func WithMaxQueryBytes(n int) Option {
	return func(c *config) { c.maxQueryBytes = max(n, 0) }
}

// Classifier classifies and splits text with fixed options. It holds no
// state besides them, so one value may be shared by many goroutines.
type Classifier struct{ cfg config }

// New returns a Classifier with the defaults changed by opts.
func New(opts ...Option) *Classifier {
	cfg := defaultConfig()
	for _, opt := range opts {
		if opt != nil {
			opt(&cfg)
		}
	}
	return &Classifier{cfg: cfg}
}

var defaultClassifier = New()

// Classify inspects text and reports its shape with the default options. It
// is pure, never panics, and is safe for concurrent use.
func Classify(text string) Classification { return defaultClassifier.Classify(text) }

// Split divides text into units as seed §7.2 describes: when text is longer
// than the chunk threshold and made of structurally different parts (a
// question followed by pasted log data, prose around a big code block), each
// part becomes a unit with its own Classification; otherwise the whole text
// is one unit. Units cover text exactly: the first starts at 0, each starts
// where the previous ended, the last ends at len(text), and blank lines
// between parts stay with the part before them.
func Split(text string, opts ...Option) []Unit {
	if len(opts) == 0 {
		return defaultClassifier.Split(text)
	}
	return New(opts...).Split(text)
}

// Unit is one part of a split input.
type Unit struct {
	// Text is the part, text[Start:End] of the input.
	Text string `json:"text"`
	// Start is the byte offset of Text in the input.
	Start int `json:"start"`
	// End is the byte offset just past Text.
	End int `json:"end"`
	// Class classifies Text on its own.
	Class Classification `json:"class"`
}

// Classify inspects text and reports its shape.
func (c *Classifier) Classify(text string) Classification {
	var a analysis
	analyze(&a, text, &c.cfg)
	cls := a.classification()
	if len(text) > c.cfg.chunkThreshold {
		cls.Chunk = len(a.parts(c.cfg.minUnitBytes)) > 1
	}
	return cls
}

// Split is the package-level Split with c's options.
func (c *Classifier) Split(text string) []Unit {
	var a analysis
	analyze(&a, text, &c.cfg)
	if len(text) > c.cfg.chunkThreshold {
		if parts := a.parts(c.cfg.minUnitBytes); len(parts) > 1 {
			units := make([]Unit, len(parts))
			for i, p := range parts {
				sub := text[p.start:p.end]
				units[i] = Unit{Text: sub, Start: p.start, End: p.end, Class: c.Classify(sub)}
			}
			return units
		}
	}
	return []Unit{{Text: text, Start: 0, End: len(text), Class: a.classification()}}
}
