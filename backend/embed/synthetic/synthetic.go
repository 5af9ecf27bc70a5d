// Package synthetic is a deterministic stand-in for a 768-dimensional
// embedding model (the size of nomic-embed-text), for benchmarks at scale
// without Ollama. It knows no language: it reads the topic markers that
// package synth writes into its notes and questions ("topic17") and puts a
// text's vector near its topics' centres, so vector search and the concept
// linker meet clusters as they would with a real model.
//
//	e := synthetic.New()
//	vecs, _ := e.Embed(ctx, []string{"Storms at the port. tags: topic00"})
//
// A text's vector is normalise(m + Noise·n), where m is the mean of the
// unit centres of the topics its markers name (counted with repetition;
// the zero vector when it names none), and n is a unit Gaussian vector
// drawn from a PCG seeded with the FNV-1a hash of the text. A centre is a
// unit Gaussian vector drawn from a PCG seeded with the FNV-1a hash of its
// topic number. With Noise 0.6, two texts of one topic have cosine about
// 1/(1+0.36) ≈ 0.74 (spread ±0.03), texts of different topics about 0
// (±0.04), and a text about the centre of its topic 1/√1.36 ≈ 0.86.
package synthetic

import (
	"context"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strconv"
	"sync"

	"github.com/loomwork/loom/backend/embed"
)

// ID names the embedder; Dim is its vector length.
const (
	ID  = "synthetic/random-768"
	Dim = 768
	// Noise is the weight of a text's own random direction against its
	// topics' centre.
	Noise = 0.6
	// ConceptThreshold is the concept threshold to ingest with. Pairs of
	// one topic have cosine 0.74 ± 0.03, so the concept count is steep in
	// it: measured with the linker over 1k / 10k / 50k nodes in 100
	// topics, 0.70 makes one concept a topic at every size, 0.72 makes
	// 1.5 / 2.7 / 4.0 a topic, 0.74 makes 4.5 / 15 / 30, and 0.76 one
	// concept for most nodes.
	ConceptThreshold = 0.72
)

// Embedder is the synthetic embedder. The zero value is not usable; call
// New.
type Embedder struct {
	centres sync.Map // topic number → []float32
}

var _ embed.Embedder = (*Embedder)(nil)

// New returns the embedder.
func New() *Embedder { return &Embedder{} }

// ID implements embed.Embedder.
func (e *Embedder) ID() string { return ID }

// Dim implements embed.Embedder.
func (e *Embedder) Dim() int { return Dim }

// Embed implements embed.Embedder; it never fails, but honours ctx between
// texts.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%256 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		out[i] = e.vector(t)
	}
	return out, nil
}

func (e *Embedder) vector(text string) []float32 {
	v := make([]float64, Dim)
	topics := Markers(text)
	for _, t := range topics {
		c := e.centre(t)
		for i := range v {
			v[i] += float64(c[i]) / float64(len(topics))
		}
	}
	noise := gaussianUnit(hash64(text))
	for i := range v {
		v[i] += Noise * float64(noise[i])
	}
	out := make([]float32, Dim)
	var sum float64
	for _, x := range v {
		sum += x * x
	}
	inv := 1 / math.Sqrt(sum)
	for i, x := range v {
		out[i] = float32(x * inv)
	}
	return out
}

func (e *Embedder) centre(topic int) []float32 {
	if c, ok := e.centres.Load(topic); ok {
		return c.([]float32)
	}
	c, _ := e.centres.LoadOrStore(topic, gaussianUnit(hash64("topic centre "+strconv.Itoa(topic))))
	return c.([]float32)
}

func hash64(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// gaussianUnit is a unit vector of Dim independent standard normals from a
// PCG seeded with seed.
func gaussianUnit(seed uint64) []float32 {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	v := make([]float64, Dim)
	var sum float64
	for i := range v {
		v[i] = r.NormFloat64()
		sum += v[i] * v[i]
	}
	inv := 1 / math.Sqrt(sum)
	out := make([]float32, Dim)
	for i, x := range v {
		out[i] = float32(x * inv)
	}
	return out
}

// Markers returns the topic numbers named in text by markers "topic"
// followed by digits (as a word of its own or not), in order, repeats
// included.
func Markers(text string) []int {
	const word = "topic"
	var out []int
	for i := 0; i+len(word) < len(text); i++ {
		if text[i] != 't' || text[i:i+len(word)] != word {
			continue
		}
		j := i + len(word)
		n := 0
		for j < len(text) && text[j] >= '0' && text[j] <= '9' && n < 1e6 {
			n = n*10 + int(text[j]-'0')
			j++
		}
		if j > i+len(word) {
			out = append(out, n)
		}
		i = j - 1
	}
	return out
}
