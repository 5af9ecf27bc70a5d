package abstract

import (
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

// FitText returns s, trimmed, if it counts at most maxTokens; else the
// longest run of its whole sentences or lines from the start that does;
// else s truncated at a word boundary ("" when not one word fits).
func FitText(count Counter, s string, maxTokens int) string { return fitText(count, s, maxTokens) }
