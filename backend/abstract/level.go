// Package abstract gives a content node the three abstraction levels of
// Loom's context assembly (shared/reference/context-query.md, "Abstraction
// Levels"): detailed (the full text), summary (about a quarter of the tokens)
// and essence (one line of at most about 30 tokens). Adaptive is not a level
// of its own but the assembler's choice among the three; Fit makes the
// budget part of that choice.
//
// A Summarizer makes the shorter levels. Extractive needs no model and no
// network: it picks the source's most central sentences. A local model can
// make them too — backend/ollama's Summarizer asks one with Prompt, reads
// the reply with CleanReply and FitText, and, given a Fallback, answers with
// the fallback's text when the model cannot:
//
//	count := tokens.Default().Count
//	s := &ollama.Summarizer{Client: client, Model: "llama3.2", Count: count,
//		Fallback: abstract.Extractive{Count: count}}
//	n := count(text)
//	sum, err := s.Summarize(ctx, text, abstract.Summary, abstract.Target(abstract.Summary, n))
//	madeBy := abstract.MadeBy(s, err) // "ollama/llama3.2", or "extractive/v5" after a fallback
//	if err != nil && !errors.Is(err, abstract.ErrFellBack) { ... }
//
// Every Summarizer keeps to maxTokens as measured by the Counter it is given:
// a result that counts more is a bug, not an approximation.
package abstract

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Level is how much of a node's text is loaded.
type Level string

// The levels. Their values are what ParseLevel accepts and what a manifest
// or a cached summary records.
const (
	// Detailed is the full text (L1).
	Detailed Level = "detailed"
	// Summary is a condensed text of about 20–30% of the tokens (L2).
	Summary Level = "summary"
	// Essence is one line of at most about 30 tokens (L3).
	Essence Level = "essence"
	// Adaptive lets the assembler choose among the three per node, by
	// budget, importance and redundancy.
	Adaptive Level = "adaptive"
)

var levels = []Level{Detailed, Summary, Essence, Adaptive}

// ParseLevel reads a level name, ignoring case and surrounding space. The
// empty string means Adaptive: a query that names no level leaves the choice
// to the assembler.
func ParseLevel(s string) (Level, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return Adaptive, nil
	}
	for _, l := range levels {
		if s == string(l) {
			return l, nil
		}
	}
	return "", fmt.Errorf("unknown abstraction level %q: want detailed, summary, essence or adaptive", s)
}

// Counter counts the tokens of a text; pass tokens.Default().Count.
type Counter func(string) int

// Target returns the token target of a level for a source of n tokens:
// Detailed n; Summary n/4 but at least 24 and at most 200; Essence n/8+8 but
// at most 30. No target exceeds n, since a shorter form never needs more room
// than the text it shortens. Adaptive is bounded by Detailed, so it returns
// n. n ≤ 0 gives 0.
func Target(level Level, n int) int {
	if n <= 0 {
		return 0
	}
	switch level {
	case Summary:
		return min(n, max(24, min(200, n/4)))
	case Essence:
		return min(n, 30, n/8+8)
	default:
		return n
	}
}

// Fit returns the most detailed level whose Target for a node of n tokens
// fits within available tokens, and false when not even the essence fits.
// It is the budget half of the Adaptive choice; importance and redundancy
// are the assembler's to weigh.
func Fit(n, available int) (Level, bool) {
	for _, l := range []Level{Detailed, Summary, Essence} {
		if Target(l, n) <= available {
			return l, true
		}
	}
	return "", false
}

// Summarizer makes a summary or essence of one node's text.
type Summarizer interface {
	// ID names the method and its model, e.g. "extractive/v5" or
	// "ollama/llama3.2"; a cached summary records the ID that made it.
	ID() string
	// Summarize returns text at level (Summary or Essence) in at most
	// maxTokens tokens. Detailed returns text itself when it fits in
	// maxTokens. Adaptive is an error: choose a level first.
	Summarize(ctx context.Context, text string, level Level, maxTokens int) (string, error)
}

// ErrEmptyText is returned for text that is empty or only white space.
var ErrEmptyText = errors.New("nothing to summarise: the text is empty or only white space")

// MadeBy returns the ID of the summariser that actually made a result s
// returned with err: the fallback's ID when err is a *FellBackError, else
// s.ID(). Record it with a cached summary, so a fallback's summary is not
// mistaken for the model's.
func MadeBy(s Summarizer, err error) string {
	var fb *FellBackError
	if errors.As(err, &fb) {
		return fb.By
	}
	return s.ID()
}

// checkRequest validates what every Summarizer is asked. It returns done
// with the answer when the request needs no summarising at all: a Detailed
// text that fits, or a Summary of a text that already fits.
//
// atLeast is a count text is known to reach (0 if none is known): a
// summary of a text above maxTokens is made without counting the text.
func checkRequest(count Counter, text string, level Level, maxTokens, atLeast int) (answer string, done bool, err error) {
	if count == nil {
		return "", false, errors.New("no token Counter: set Count (tokens.Default().Count)")
	}
	if strings.TrimSpace(text) == "" {
		return "", false, ErrEmptyText
	}
	if maxTokens <= 0 {
		return "", false, fmt.Errorf("maxTokens %d: want at least 1", maxTokens)
	}
	switch level {
	case Summary, Essence:
	case Detailed:
		if n := count(text); n > maxTokens {
			return "", false, fmt.Errorf("detailed text has %d tokens, more than maxTokens %d: ask for a summary", n, maxTokens)
		}
		return text, true, nil
	case Adaptive:
		return "", false, errors.New("level adaptive is a choice, not a form: choose detailed, summary or essence first (see Fit)")
	default:
		return "", false, fmt.Errorf("unknown abstraction level %q: want detailed, summary or essence", string(level))
	}
	if level == Summary && atLeast <= maxTokens && count(text) <= maxTokens {
		return text, true, nil
	}
	return "", false, nil
}
