// Package synth writes deterministic synthetic workspaces for benchmarks:
// markdown notes about 100 topics, and questions about the same topics, so
// that keyword search, vector search and the concept linker all meet
// structure like that of real notes, at any size.
//
//	err := synth.Generate(dir, 50_000, 1) // ≈1,250 files, 50,000 sections
//	qs := synth.Questions(200, 1)
//
// # The corpus
//
// Each file has a main topic and two side topics. It is a "# " title and
// about 40 "## " sections (30 to 50), every one with text, so every heading
// becomes one content node and a file of k headings is k nodes. A section
// is about the file's main topic (3 in 4) or a side topic, and runs 60 to
// 250 words in sentences of 6 to 18 words, each word a function word (35%),
// a word of the section's topic (50%, the topic's commoner words more
// often) or a word of any topic (15%). Its last line is a tag naming its
// topic, "tags: topic17": the marker from which the synthetic embedder
// (package embed/synthetic) places its vector, as a real model would place
// it from the words.
//
// A question puts three words of its topic into one of a dozen shapes (in
// one question of five the third word comes from a second topic) and ends
// with its topic tags.
//
// Everything is drawn from math/rand/v2's PCG seeded from the seed and the
// file or question number, so a seed gives the same bytes on every machine.
package synth

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Topics is the number of topics.
const Topics = 100

// Sections per file: MinSections to MaxSections, about 40 on average.
const (
	MinSections = 30
	MaxSections = 50
)

// Marker is the tag that names topic t in the text ("topic17").
func Marker(t int) string { return fmt.Sprintf("topic%02d", t) }

var vocabulary = sync.OnceValue(func() [][]string {
	var topics [][]string
	for line := range strings.Lines(topicWords) {
		if f := strings.Fields(line); len(f) > 0 {
			topics = append(topics, f)
		}
	}
	if len(topics) != Topics {
		panic(fmt.Sprintf("synth: %d topics in the vocabulary, want %d", len(topics), Topics))
	}
	return topics
})

// TopicWords returns the words of topic t (shared: do not modify).
func TopicWords(t int) []string { return vocabulary()[t] }

var functionWords = strings.Fields("the of and to in a is that for on with as by at from it this was are be or an which has have not but their its were been also")

// zipfCDF weights a topic's word of rank r by 1/(r+2): the first words of
// a line (the commoner ones) recur, the last ones are rare, so BM25 meets
// both frequent and discriminating terms.
var zipfCDF = sync.OnceValue(func() []float64 {
	cdf := make([]float64, len(vocabulary()[0]))
	sum := 0.0
	for r := range cdf {
		sum += 1 / float64(r+2)
		cdf[r] = sum
	}
	for r := range cdf {
		cdf[r] /= sum
	}
	return cdf
})

func topicWord(r *rand.Rand, t int) string {
	words := vocabulary()[t]
	i, _ := slices.BinarySearch(zipfCDF(), r.Float64())
	return words[min(i, len(words)-1)]
}

// rng is a PCG stream for one purpose and number under a seed.
func rng(seed uint64, purpose string, n int) *rand.Rand {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d", purpose, n)
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

// FileSections returns the number of sections (content nodes) of each
// file Generate writes for nodes content nodes: about 40 each, summing to
// nodes exactly.
func FileSections(nodes int, seed uint64) []int {
	var out []int
	for left := nodes; left > 0; {
		k := MinSections + rng(seed, "size", len(out)).IntN(MaxSections-MinSections+1)
		if left-k < MinSections {
			k = left // the last file takes the rest (at most 79)
		}
		out = append(out, k)
		left -= k
	}
	return out
}

// Generate writes markdown files holding nodes content nodes into dir
// (created if missing), in subfolders of 100 files: d00/n0000.md, …. The
// same nodes and seed write the same bytes.
func Generate(dir string, nodes int, seed uint64) error {
	if nodes <= 0 {
		return fmt.Errorf("synth: %d nodes: want at least one", nodes)
	}
	sizes := FileSections(nodes, seed)
	errs := make([]error, len(sizes))
	var wg sync.WaitGroup
	next := make(chan int)
	for range 4 {
		wg.Go(func() {
			for i := range next {
				p := filepath.Join(dir, fmt.Sprintf("d%02d", i/100), fmt.Sprintf("n%04d.md", i))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					errs[i] = err
					continue
				}
				if err := os.WriteFile(p, []byte(File(i, sizes[i], seed)), 0o644); err != nil {
					errs[i] = fmt.Errorf("synth: write %s: %w", p, err)
				}
			}
		})
	}
	for i := range sizes {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// File returns the markdown of file i with the given number of sections.
func File(i, sections int, seed uint64) string {
	r := rng(seed, "file", i)
	main := r.IntN(Topics)
	side := [2]int{r.IntN(Topics), r.IntN(Topics)}
	var b strings.Builder
	for s := range sections {
		topic := main
		if s > 0 && r.IntN(4) == 0 {
			topic = side[r.IntN(2)]
		}
		if s == 0 {
			b.WriteString("# ")
			b.WriteString(title(r, main, 3+r.IntN(3)))
		} else {
			b.WriteString("\n## ")
			b.WriteString(title(r, topic, 2+r.IntN(3)))
		}
		b.WriteString("\n\n")
		section(&b, r, topic, 60+r.IntN(191))
	}
	return b.String()
}

// title is n topic words, capitalised.
func title(r *rand.Rand, t, n int) string {
	words := make([]string, n)
	for i := range words {
		words[i] = topicWord(r, t)
	}
	words[0] = capitalise(words[0])
	return strings.Join(words, " ")
}

func capitalise(w string) string { return strings.ToUpper(w[:1]) + w[1:] }

// section writes words words of text about topic t in one to three
// paragraphs, then its tag line.
func section(b *strings.Builder, r *rand.Rand, t, words int) {
	paragraphs := 1 + r.IntN(3)
	perParagraph := (words + paragraphs - 1) / paragraphs
	written := 0
	for p := 0; p < paragraphs && written < words; p++ {
		end := min(words, written+perParagraph)
		for written < end {
			n := min(end-written, 6+r.IntN(13))
			b.WriteString(sentence(r, t, n))
			written += n
			if written < end {
				b.WriteByte(' ')
			}
		}
		b.WriteString("\n\n")
	}
	b.WriteString("tags: ")
	b.WriteString(Marker(t))
	b.WriteString("\n")
}

func sentence(r *rand.Rand, t, n int) string {
	words := make([]string, n)
	for i := range words {
		switch x := r.IntN(100); {
		case x < 35:
			words[i] = functionWords[r.IntN(len(functionWords))]
		case x < 85:
			words[i] = topicWord(r, t)
		default:
			words[i] = topicWord(r, r.IntN(Topics))
		}
	}
	words[0] = capitalise(words[0])
	return strings.Join(words, " ") + "."
}

// questionShapes take three words.
var questionShapes = []string{
	"How does the %s %s relate to %s?",
	"What do the notes say about %s and %s %s?",
	"Why is %s important for the %s %s?",
	"Explain the %s of the %s and its %s.",
	"Which %s were linked to the %s %s?",
	"Summarise what is known about %s, %s and %s.",
	"When did the %s change the %s %s?",
	"Compare %s with %s for %s.",
	"What happened to the %s after the %s %s?",
	"List the %s and %s behind the %s.",
	"Is there evidence that %s affects %s %s?",
	"Where are %s, %s and %s discussed?",
}

// Questions returns n questions about the corpus's topics; the same n and
// seed give the same questions.
func Questions(n int, seed uint64) []string {
	out := make([]string, n)
	for i := range out {
		r := rng(seed, "question", i)
		t := r.IntN(Topics)
		other := t
		if r.IntN(5) == 0 {
			other = r.IntN(Topics)
		}
		shape := questionShapes[r.IntN(len(questionShapes))]
		q := fmt.Sprintf(shape, topicWord(r, t), topicWord(r, t), topicWord(r, other))
		tags := Marker(t)
		if other != t {
			tags += " " + Marker(other)
		}
		out[i] = q + " (tags: " + tags + ")"
	}
	return out
}
