package clusters

import (
	"cmp"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/loomwork/loom/backend/concepts"
	"github.com/loomwork/loom/backend/index"
)

// Names are made of at most maxNameParts parts, title words first (see
// titleWords), then up to maxNameConcepts concept names, and are kept to
// maxNameRunes characters (one part alone may be longer).
const (
	maxNameParts    = 3
	maxNameConcepts = 2
	maxNameRunes    = 48
)

// names names every cluster (but Other) from its concepts: those most
// central to it (weight inside; the sections about a concept count a
// little, for concepts tied to no other) and most its own (weight inside
// over weight in all), their names weighed by how few clusters have a
// concept of that name (a TF-IDF over clusters: "Introduction" names
// nothing). Words of its documents' titles that are its own lead the name
// (titleWords). Names are made unique: a name another cluster has already
// gets the next concept's name too. Clusters are named largest first, so
// that a larger cluster keeps the shorter name.
func names(ix *index.Graph, in *input, cls []Cluster, order []int32, members [][]int32, other int32, inner, total, mass []float64, docOf []int32) {
	short := make([]string, len(in.concepts))
	df := map[string]int{} // clusters with a concept of this name
	for _, ms := range members {
		seen := map[string]bool{}
		for _, c := range ms {
			short[c] = shortName(ix.Concepts[in.concepts[c]].Name)
			key := strings.ToLower(short[c])
			if !seen[key] {
				seen[key] = true
				df[key]++
			}
		}
	}
	titles := titleWords(ix, in, docOf, len(cls))
	folders := codeFolders(ix, in, docOf, len(cls))
	for l, fs := range folders {
		if len(fs) > 0 {
			titles[l] = fs // source code is named by where it lives
		}
	}
	used := map[string]bool{strings.ToLower(OtherName): true}
	for _, l := range order {
		if l == other {
			cls[l].Name = OtherName
			continue
		}
		type cand struct {
			name  string
			score float64
		}
		var cands []cand
		for _, c := range members[l] {
			name := short[c]
			if name == "" || junkName(name) {
				continue
			}
			specific := 1.0
			if total[c] > 0 {
				specific = inner[c] / total[c]
			}
			idf := math.Log(1+float64(len(cls))/float64(df[strings.ToLower(name)])) / math.Log(1+float64(len(cls)))
			score := (inner[c] + 0.01*mass[c]) * specific * idf
			if concepts.Generic(name) {
				score *= 0.01
			}
			cands = append(cands, cand{name, score})
		}
		slices.SortStableFunc(cands, func(x, y cand) int { return cmp.Compare(y.score, x.score) })
		parts := slices.Clone(titles[l])
		limit := min(maxNameParts, len(parts)+maxNameConcepts)
		for _, c := range cands {
			if len(parts) >= limit {
				break
			}
			if overlaps(parts, c.name) ||
				len(parts) > 0 && utf8.RuneCountInString(strings.Join(append(parts, c.name), ", ")) > maxNameRunes {
				continue
			}
			parts = append(parts, c.name)
		}
		name := strings.Join(parts, ", ")
		// A name another cluster has: add concepts until it is its own.
		for _, c := range cands {
			if !used[strings.ToLower(name)] {
				break
			}
			if !overlaps(parts, c.name) {
				parts = append(parts, c.name)
				name = strings.Join(parts, ", ")
			}
		}
		if name == "" { // no concept with a usable name
			name = "Untitled cluster"
		}
		if len(folders[l]) == 0 { // a path is spelt as it is
			name = capitalise(name)
		}
		for n, base := 2, name; used[strings.ToLower(name)]; n++ {
			name = base + " (" + strconv.Itoa(n) + ")"
		}
		used[strings.ToLower(name)] = true
		cls[l].Name = name
	}
}

// shortName is a concept's name as a cluster's name uses it: the first of
// its key phrases ("a · b" names), without surrounding punctuation.
func shortName(name string) string {
	if i := strings.Index(name, " · "); i > 0 {
		name = name[:i]
	}
	name = strings.Join(strings.Fields(name), " ")
	return strings.TrimFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != ')' })
}

// junkName says whether a name says nothing: it has no letters (a bare
// number; concept names always have some, but a name cut to its first key
// phrase is checked again).
func junkName(name string) bool {
	return !strings.ContainsFunc(name, unicode.IsLetter)
}

// overlaps says whether name repeats one of parts (one contains the other,
// case aside).
func overlaps(parts []string, name string) bool {
	n := strings.ToLower(name)
	for _, p := range parts {
		p = strings.ToLower(p)
		if strings.Contains(p, n) || strings.Contains(n, p) {
			return true
		}
	}
	return false
}

// Title words lead a cluster's name when they are its own: most of the
// documents whose titles have the word are the cluster's (titleOwn), and
// either most of its documents' titles have it (titleCover, at least two
// documents) or enough of them do (titleSome, at least three documents).
// The second case names clusters of many documents whose concepts have no
// headings to be named after (abstracts: "DNA, RNA" rather than "bc1 rna
// gene transcripts").
const (
	titleOwn   = 0.6
	titleCover = 0.5
	titleSome  = 0.05
	maxTitle   = 2
)

// titleWords finds, for each cluster, up to maxTitle words of its
// documents' titles that are its own (see titleOwn), best first (by the
// share of its documents that have the word times the share of the
// documents with the word that are its own), each spelt as a title of the
// cluster spells it (with a capital where one does).
func titleWords(ix *index.Graph, in *input, docOf []int32, k int) [][]string {
	type key struct {
		cluster int32
		word    string
	}
	inCluster := map[key]int{}
	everywhere := map[string]int{}
	docsIn := make([]int, k)
	var seen []string
	for d, id := range in.docs {
		l := docOf[d]
		if l >= 0 {
			docsIn[l]++
		}
		seen = seen[:0]
		for _, w := range concepts.Words(ix.Docs[id].Title) {
			if concepts.GenericWord(w) || slices.Contains(seen, w) {
				continue
			}
			seen = append(seen, w)
			everywhere[w]++
			if l >= 0 {
				inCluster[key{l, w}]++
			}
		}
	}
	type scored struct {
		word  string
		score float64
	}
	cands := make([][]scored, k)
	for kw, n := range inCluster {
		l := kw.cluster
		cover := float64(n) / float64(docsIn[l])
		own := float64(n) / float64(everywhere[kw.word])
		if own < titleOwn || !(n >= 2 && cover >= titleCover || n >= 3 && cover >= titleSome) {
			continue
		}
		cands[l] = append(cands[l], scored{kw.word, cover * own})
	}
	out := make([][]string, k)
	for l, cs := range cands {
		slices.SortFunc(cs, func(x, y scored) int {
			if x.score != y.score {
				return cmp.Compare(y.score, x.score)
			}
			return strings.Compare(x.word, y.word)
		})
		for _, c := range cs[:min(maxTitle, len(cs))] {
			out[l] = append(out[l], c.word)
		}
	}
	for d, id := range in.docs { // each word as a title spells it
		l := docOf[d]
		if l < 0 || len(out[l]) == 0 {
			continue
		}
		for _, f := range strings.FieldsFunc(ix.Docs[id].Title, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			for i, w := range out[l] {
				if strings.EqualFold(f, w) && (w == strings.ToLower(w) || unicode.IsUpper(firstRune(f)) && !unicode.IsUpper(firstRune(w))) {
					out[l][i] = f
				}
			}
		}
	}
	for _, ws := range out {
		for i := range ws {
			ws[i] = capitalise(ws[i])
		}
	}
	return out
}

// codeFolders names, for each cluster whose documents are mostly source
// code, the folders that hold most of them ("ingest/pdf"), at most
// maxTitle, each by its last two path elements; nil for the others. A
// code cluster's concepts are named after definitions ("func readPDF"),
// which say less of it than where its files are.
func codeFolders(ix *index.Graph, in *input, docOf []int32, k int) [][]string {
	docsIn, codeIn := make([]int, k), make([]int, k)
	folders := make([]map[string]int, k)
	for d, id := range in.docs {
		l := docOf[d]
		if l < 0 {
			continue
		}
		docsIn[l]++
		doc := ix.Docs[id]
		if doc.Meta.Language == "" {
			continue
		}
		codeIn[l]++
		if folders[l] == nil {
			folders[l] = map[string]int{}
		}
		folders[l][shortFolder(doc.Path)]++
	}
	out := make([][]string, k)
	for l := range k {
		if codeIn[l] == 0 || 2*codeIn[l] < docsIn[l] {
			continue
		}
		fs := make([]string, 0, len(folders[l]))
		for f := range folders[l] {
			fs = append(fs, f)
		}
		slices.SortFunc(fs, func(a, b string) int {
			if c := cmp.Compare(folders[l][b], folders[l][a]); c != 0 {
				return c
			}
			return strings.Compare(a, b)
		})
		for _, f := range fs[:min(maxTitle, len(fs))] {
			if 4*folders[l][f] >= codeIn[l] || len(out[l]) == 0 { // the first, and others that hold a quarter
				out[l] = append(out[l], f)
			}
		}
	}
	return out
}

// shortFolder is a file's folder by its last two elements, or the file's
// own name at the root: "backend/ingest/pdf/line.go" → "ingest/pdf",
// "main.go" → "main.go".
func shortFolder(p string) string {
	dir := path.Dir(p)
	if dir == "." || dir == "/" {
		return path.Base(p) // a file at the top: its name says more than "."
	}
	parts := strings.Split(strings.Trim(dir, "/"), "/")
	return strings.Join(parts[max(0, len(parts)-2):], "/")
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// capitalise upper-cases a word's first letter.
func capitalise(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
