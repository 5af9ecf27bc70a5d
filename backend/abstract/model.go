package abstract

import (
	"context"
	"fmt"
	"regexp"
	"strings"
)

// Asking a language model for a level: what to ask (Prompt), how to read
// the reply (CleanReply), and the checks every model-backed Summarizer
// makes before and after (Check, FitText). The model itself runs behind an
// adapter (backend/ollama's Summarizer); what a summary or an essence is,
// and how long it may be, is this package's.

// WordLimit is the number of words the prompt asks for when the answer
// must fit in maxTokens: two words for three tokens, since English prose
// runs about 1.3 tokens a word and markdown more.
func WordLimit(maxTokens int) int { return max(1, maxTokens*2/3) }

// Prompt asks a model for the summary or essence of text in at most
// WordLimit(maxTokens) words, adding nothing that is not in it.
func Prompt(text string, level Level, maxTokens int) string {
	words := WordLimit(maxTokens)
	task := fmt.Sprintf("Summarise the following section in at most %d words. "+
		"Keep its main claims, names and numbers, and add nothing that is not in it. "+
		"Output only the summary.", words)
	if level == Essence {
		task = fmt.Sprintf("State the gist of the following section in one sentence of at most %d words. "+
			"Add nothing that is not in it. Output only the sentence.", words)
	}
	return task + "\n\nSection:\n\"\"\"\n" + strings.TrimSpace(text) + "\n\"\"\""
}

var (
	thinking = regexp.MustCompile(`(?s)<think>.*?</think>`)
	// preamble is a model's "Here is a summary of the section:" line.
	preamble = regexp.MustCompile(`(?i)^(here is|here's|sure)[^:\n]*:\s*`)
	// label is a "Summary:" or "**Essence:**" before the answer.
	label = regexp.MustCompile(`(?i)^[*_]*(summary|essence|gist|one-sentence summary|tl;dr)[*_]*\s*:[*_]*\s*`)
)

// quotePairs are the quotes a model may put around its whole answer.
var quotePairs = [][2]string{{`"`, `"`}, {"'", "'"}, {"“", "”"}, {"«", "»"}, {"`", "`"}}

// CleanReply strips what models add around an answer: thinking, a
// preamble, a label, a code fence, surrounding quotes. An essence is made
// one line.
func CleanReply(s string, level Level) string {
	s = strings.TrimSpace(thinking.ReplaceAllString(s, ""))
	for prev := ""; s != prev; {
		prev = s
		s = strings.TrimSpace(preamble.ReplaceAllString(s, ""))
		s = strings.TrimSpace(label.ReplaceAllString(s, ""))
		if strings.HasPrefix(s, "```") && strings.HasSuffix(s, "```") && len(s) >= 6 {
			s = strings.TrimSuffix(s, "```")
			if nl := strings.IndexByte(s, '\n'); nl >= 0 {
				s = strings.TrimSpace(s[nl+1:])
			} else {
				s = strings.TrimSpace(strings.TrimPrefix(s, "```"))
			}
		}
		for _, q := range quotePairs {
			inner, ok := strings.CutPrefix(s, q[0])
			if !ok {
				continue
			}
			if inner, ok = strings.CutSuffix(inner, q[1]); ok && !strings.Contains(inner, q[0]) && !strings.Contains(inner, q[1]) {
				s = strings.TrimSpace(inner)
			}
		}
	}
	if level == Essence {
		s = strings.Join(strings.Fields(s), " ")
	}
	return s
}

// Check validates a request as every Summarizer must, for summarisers
// outside this package. It returns done with the answer when the request
// needs no summarising at all: a Detailed text that fits, or a Summary of a
// text that already fits.
func Check(count Counter, text string, level Level, maxTokens int) (answer string, done bool, err error) {
	return checkRequest(count, text, level, maxTokens, 0)
}

// ByModel is the way every model summariser (Ollama's, an OpenAI-compatible
// server's) summarises: the request is checked (Check: a text that needs no
// summarising is its own answer, and the model is not asked); generate asks
// the model; when it fails and fallback is set, the fallback's text comes
// back with a *FellBackError saying who made it and why. The caller's
// ended ctx is never covered by the fallback. id names the summariser in
// the messages ("summarise with ollama/llama3.2: …").
func ByModel(ctx context.Context, id string, count Counter, text string, level Level, maxTokens int,
	generate func() (string, error), fallback Summarizer) (string, error) {
	answer, done, err := Check(count, text, level, maxTokens)
	if err != nil {
		return "", fmt.Errorf("summarise with %s: %w", id, err)
	}
	if done {
		return answer, nil
	}
	out, err := generate()
	if err == nil {
		return out, nil
	}
	if fallback == nil || ctx.Err() != nil {
		return "", err
	}
	out, fallbackErr := fallback.Summarize(ctx, text, level, maxTokens)
	if fallbackErr != nil {
		return "", fmt.Errorf("%w; the fallback failed too: %w", err, fallbackErr)
	}
	return out, &FellBackError{By: fallback.ID(), Cause: err}
}

// FitText returns s, trimmed, if it counts at most maxTokens; else the
// longest run of its whole sentences or lines from the start that does;
// else s truncated at a word boundary ("" when not one word fits).
func FitText(count Counter, s string, maxTokens int) string { return fitText(count, s, maxTokens) }
