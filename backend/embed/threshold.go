package embed

import "strings"

// OllamaConceptThreshold is the cosine similarity at or above which a chunk
// joins an existing concept when the vectors come from an Ollama model. It
// is the seed's starting point, to be confirmed per model.
const OllamaConceptThreshold = 0.8

// OfflineConceptThreshold is the same threshold for the offline embedder,
// calibrated on reference/ and SciFact to 3–6 content nodes a concept (see BENCHMARKS.md).
//
// SIF-averaged GloVe vectors sit on a
// different scale from a transformer's. Measured on SciFact abstracts,
// cosines between random pairs of abstracts have median 0.70 and 99th
// percentile 0.90 (long texts in one domain all drift towards the domain's
// average), a claim and an abstract that supports it have median 0.76, and
// hand-made paraphrase sentences median 0.73 against 0.07 for unrelated
// sentences. Measured concepts per content node: 0.80 gives 25% on reference/
// and 11% on SciFact, 0.85 gives 43% and 23%; 0.83 sits between.
const OfflineConceptThreshold = 0.83

// ConceptThreshold returns the cosine similarity at or above which two texts are
// taken to be about the same concept, for vectors made by the embedder with
// this ID. Thresholds do not transfer between embedders, so each gets its
// own; callers should still let configuration override them. Unknown IDs get
// the Ollama value.
func ConceptThreshold(embedderID string) float64 {
	switch {
	case strings.HasPrefix(embedderID, "offline/"):
		return OfflineConceptThreshold
	default: // "ollama/..." and anything else
		return OllamaConceptThreshold
	}
}
