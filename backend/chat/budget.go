package chat

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/ollama/ollama/api"
)

// messageOverhead is what a chat template adds per message (role markers,
// separators), in tokens. Calibration absorbs the difference per model.
const messageOverhead = 4

// minToolText is the smallest tool result worth sending, in tokens: less
// than this and the model is told the budget is exhausted instead.
const minToolText = 24

// budgetExhausted is the tool message sent when no result fits.
const budgetExhausted = "budget exhausted: answer with what you have"

// transcript is the messages of a turn with each one's token count, so
// that a message is counted once however many requests carry it.
type transcript struct {
	msgs   []api.Message
	tokens []int
	count  func(string) int
}

func (t *transcript) add(m api.Message) {
	t.msgs = append(t.msgs, m)
	t.tokens = append(t.tokens, messageTokens(m, t.count))
}

func (t *transcript) total() int {
	n := 0
	for _, v := range t.tokens {
		n += v
	}
	return n
}

// messageTokens estimates one message as a template renders it.
func messageTokens(m api.Message, count func(string) int) int {
	n := messageOverhead + count(m.Content)
	if m.Thinking != "" {
		n += count(m.Thinking)
	}
	if len(m.ToolCalls) > 0 {
		b, _ := json.Marshal(m.ToolCalls)
		n += count(string(b))
	}
	return n
}

// toolsTokens estimates the tool definitions as a template renders them
// (most templates print them as JSON).
func toolsTokens(tools api.Tools, count func(string) int) int {
	if len(tools) == 0 {
		return 0
	}
	return count(tools.String())
}

// estimateLen is the fallback counter: about four bytes a token.
func estimateLen(s string) int { return (len(s) + 3) / 4 }

// fitText trims text so that it counts at most allowed tokens: whole lines
// first, with a note saying how many were left out; when not even the
// first line fits, the first line cut at a word. ok is false when nothing
// useful fits.
func fitText(text string, allowed int, count func(string) int) (kept string, trimmed, ok bool) {
	if count(text) <= allowed {
		return text, false, true
	}
	if allowed < minToolText {
		return "", true, false
	}
	lines := strings.SplitAfter(text, "\n")
	withNote := func(k int) string {
		return strings.TrimRight(strings.Join(lines[:k], ""), "\n") +
			fmt.Sprintf("\n[trimmed to fit the budget: %d of %d lines shown]", k, len(lines))
	}
	// The largest k with lines[:k] (plus the note) within allowed.
	k := sort.Search(len(lines), func(k int) bool { return count(withNote(k+1)) > allowed })
	if k > 0 {
		return withNote(k), true, true
	}
	words := strings.SplitAfter(lines[0], " ")
	cut := func(w int) string {
		return strings.TrimRight(strings.Join(words[:w], ""), " ") + fmt.Sprintf(" …\n[trimmed to fit the budget: part of 1 of %d lines shown]", len(lines))
	}
	w := sort.Search(len(words), func(w int) bool { return count(cut(w+1)) > allowed })
	if w == 0 {
		return "", true, false
	}
	kept = cut(w)
	if count(kept) < minToolText/2 {
		return "", true, false
	}
	return kept, true, true
}

// idsShown keeps the ids that text mentions. When text mentions none of
// them (an implementation that lists ids only in NodeIDs), all are kept:
// there is no telling which the trimming removed.
func idsShown(ids []string, full, text string) []string {
	if len(ids) == 0 {
		return nil
	}
	anyInFull := false
	for _, id := range ids {
		if id != "" && strings.Contains(full, id) {
			anyInFull = true
			break
		}
	}
	if !anyInFull {
		return append([]string(nil), ids...)
	}
	var out []string
	for _, id := range ids {
		if id != "" && strings.Contains(text, id) {
			out = append(out, id)
		}
	}
	return out
}
