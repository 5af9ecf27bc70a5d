package levels

import (
	"sort"
	"strings"

	"github.com/loomwork/loom/backend/abstract"
	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/search"
)

// BestChunks keeps the paragraphs of text that share the most terms with
// the question, in their order, within limit tokens. A paragraph that
// shares none (a bare heading, a code fence, a table of figures) is not a
// match, however small: it would fill the limit with what the question
// did not ask. When no matching paragraph fits, the best one's head is
// kept; when none matches, the text's head.
func BestChunks(text string, terms []string, limit int, count assemble.Counter) string {
	paras := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n")
	want := map[string]bool{}
	for _, t := range terms {
		want[t] = true
	}
	type scored struct {
		i      int
		score  float64
		tokens int
	}
	var ss []scored
	for i, p := range paras {
		if strings.TrimSpace(p) == "" {
			continue
		}
		hit := 0
		pt := search.Terms(p)
		for _, t := range pt {
			if want[t] {
				hit++
			}
		}
		if hit == 0 {
			continue
		}
		score := float64(hit) / float64(1+len(pt)/16)
		if i == 0 {
			score += 0.1 // the opening paragraph frames the section
		}
		ss = append(ss, scored{i, score, count(p)})
	}
	sort.SliceStable(ss, func(a, b int) bool { return ss[a].score > ss[b].score })
	used := 0
	var keep []int
	for _, s := range ss {
		if used+s.tokens+2 <= limit {
			keep = append(keep, s.i)
			used += s.tokens + 2
		}
	}
	if len(keep) == 0 { // the best paragraph is larger than the limit, or none matches: a head
		head := text
		if len(ss) > 0 {
			head = paras[ss[0].i]
		}
		return abstract.Truncate(abstract.Counter(count), strings.TrimSpace(head), limit)
	}
	sort.Ints(keep)
	parts := make([]string, len(keep))
	for k, i := range keep {
		parts[k] = strings.TrimSpace(paras[i])
	}
	out := strings.Join(parts, "\n\n…\n\n")
	if count(out) > limit {
		out = abstract.Truncate(abstract.Counter(count), out, limit)
	}
	return out
}
