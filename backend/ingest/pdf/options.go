package pdf

// The limits Read and Extract apply unless told otherwise.
const (
	// DefaultMaxBytes is the largest file read: 256 MiB. Papers are a few
	// MB; a file this size is a scanned book or a poster, and refusing it
	// up front costs less than paging it through pdfium.
	DefaultMaxBytes = 256 << 20
	// DefaultMaxPages is the most pages read.
	DefaultMaxPages = 2000
)

// Option changes a limit of Read or Extract.
type Option func(*options)

type options struct {
	maxBytes int64
	maxPages int
}

func makeOptions(opts []Option) options {
	o := options{maxBytes: DefaultMaxBytes, maxPages: DefaultMaxPages}
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// WithMaxBytes refuses files larger than n bytes (n ≤ 0 keeps the default).
func WithMaxBytes(n int64) Option {
	return func(o *options) {
		if n > 0 {
			o.maxBytes = n
		}
	}
}

// WithMaxPages refuses documents with more than n pages (n ≤ 0 keeps the
// default).
func WithMaxPages(n int) Option {
	return func(o *options) {
		if n > 0 {
			o.maxPages = n
		}
	}
}
