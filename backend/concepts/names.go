package concepts

import (
	"sort"
	"strings"
	"unicode"
)

// KeyPhrases extracts up to n key phrases with RAKE (rapid automatic keyword
// extraction): candidate phrases are runs of words between stop words and
// punctuation; a word scores its degree over its frequency; a phrase, the
// sum of its words. Markdown markup and code fences are ignored.
func KeyPhrases(text string, n int) []string {
	var phrases [][]string
	var cur []string
	flush := func() {
		if len(cur) > 0 && len(cur) <= 4 {
			phrases = append(phrases, cur)
		}
		cur = nil
	}
	inFence := false
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
			flush()
			continue
		}
		if inFence || strings.HasPrefix(t, "|--") || strings.HasPrefix(t, "---") {
			continue
		}
		word := strings.Builder{}
		endWord := func() {
			if word.Len() == 0 {
				return
			}
			w := strings.ToLower(word.String())
			word.Reset()
			if stopWords[w] || len(w) < 3 || isNumber(w) {
				flush()
				return
			}
			cur = append(cur, w)
		}
		for _, r := range line {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' && word.Len() > 0:
				word.WriteRune(r)
			case r == ' ' || r == '\t' || r == '\'' || r == '’':
				endWord()
			default: // punctuation ends a phrase
				endWord()
				flush()
			}
		}
		endWord()
		flush()
	}
	freq := map[string]float64{}
	degree := map[string]float64{}
	for _, p := range phrases {
		for _, w := range p {
			freq[w]++
			degree[w] += float64(len(p))
		}
	}
	type scored struct {
		text  string
		score float64
		first int
	}
	best := map[string]*scored{}
	for i, p := range phrases {
		s := 0.0
		for _, w := range p {
			s += degree[w] / freq[w]
		}
		key := strings.Join(p, " ")
		if b, ok := best[key]; ok {
			b.score += s * 0.5 // repeated phrases gain, sublinearly
			continue
		}
		best[key] = &scored{key, s, i}
	}
	list := make([]*scored, 0, len(best))
	for _, b := range best {
		list = append(list, b)
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].score != list[j].score {
			return list[i].score > list[j].score
		}
		return list[i].first < list[j].first
	})
	var out []string
	for _, b := range list {
		if len(out) == n {
			break
		}
		dup := false
		for _, o := range out {
			if strings.Contains(o, b.text) || strings.Contains(b.text, o) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, b.text)
		}
	}
	return out
}

// Name makes a readable concept name from its founding text: the two best
// key phrases, or the heading when there is one.
func Name(heading, text string) string {
	if h := strings.TrimSpace(strings.TrimLeft(heading, "#0123456789. ")); h != "" && len(h) <= 60 {
		return h
	}
	ps := KeyPhrases(text, 2)
	if len(ps) == 0 {
		return firstWords(text, 6)
	}
	return strings.Join(ps, " · ")
}

// Describe is a one-sentence description: the first sentence of the text
// (after headings), at most 160 characters.
func Describe(text string) string {
	var body []string
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "```") || strings.HasPrefix(t, "|") || strings.HasPrefix(t, "---") {
			continue
		}
		body = append(body, strings.TrimLeft(t, "-*> "))
	}
	s := strings.Join(body, " ")
	for i, r := range s {
		if (r == '.' || r == '?' || r == '!') && (i+1 == len(s) || s[i+1] == ' ') && i > 20 {
			s = s[:i+1]
			break
		}
	}
	if len(s) > 160 {
		cut := strings.LastIndexByte(s[:157], ' ')
		if cut < 80 {
			cut = 157
		}
		s = s[:cut] + "…"
	}
	return s
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = f[:n]
	}
	return strings.Join(f, " ")
}

func isNumber(w string) bool {
	for _, r := range w {
		if !unicode.IsDigit(r) && r != '.' && r != '-' {
			return false
		}
	}
	return true
}

var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about above after again against all also am an and any are aren as at be because been
before being below between both but by can cannot could did do does doing don down during each either else etc even ever every
few for from further get gets got had has have having he her here hers herself him himself his how however i if in into is isn it
its itself just least less let like likely made make makes many may me might more most much must my myself need needs neither
no nor not now of off often on once one only or other others our ours ourselves out over own per rather same see seen several shall
she should since so some such than that the their theirs them themselves then there these they this those though through thus to
too under until up upon us use used uses using very via was we well were what when where whether which while who whom whose why will
with within without would yet you your yours yourself yourselves new two three first second based within across among e g eg ie
i.e e.g vs also into onto`) {
		m[w] = true
	}
	return m
}()
