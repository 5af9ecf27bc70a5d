package embed

import "strings"

// OllamaConceptThreshold is the cosine similarity at or above which a chunk
// joins an existing concept when the vectors come from an Ollama model. It
// is the seed's starting point, to be confirmed per model.
const OllamaConceptThreshold = 0.8

// OfflineConceptThreshold is the same threshold for the offline embedder
// (all-MiniLM-L6-v2 distilled to a static table), calibrated on reference/
// and SciFact to make as many concepts as the GloVe embedder it replaced
// did at its 0.83 (3–6 content nodes a concept; see BENCHMARKS.md).
//
// Its vectors sit on a different scale from a transformer's: measured on
// SciFact abstracts, cosines between random pairs of abstracts have median
// 0.57 and 99th percentile 0.76 (long texts in one domain all lean towards
// the domain's average), a claim and an abstract that supports it have
// median 0.59, and hand-made paraphrase sentences mean 0.62 against 0.14
// for unrelated sentences. Concepts per content node: 0.68 gives 32% on
// reference/ and 13% on SciFact, 0.70 gives 39% and 16%; 0.695 gives 37%
// and 15%, where GloVe at 0.83 gave 33% and 17%.
const OfflineConceptThreshold = 0.695

// MiniLMConceptThreshold is the threshold for the full MiniLM encoder,
// calibrated the same way: concepts per content node 0.50 gives 14% on
// reference/ and 23% on SciFact, 0.55 gives 20% and 35%, 0.60 gives 23%
// and 48% (a transformer spreads one domain's abstracts further apart
// than the static table does). 0.55 is nearest the offline embedder's
// geometric mean; ranking quality moved by less than a standard error
// between 0.50 and 0.70 on every dev set (BENCHMARKS.md).
const MiniLMConceptThreshold = 0.55

// ConceptThreshold returns the cosine similarity at or above which two texts are
// taken to be about the same concept, for vectors made by the embedder with
// this ID. Thresholds do not transfer between embedders, so each gets its
// own; callers should still let configuration override them. Unknown IDs get
// the Ollama value.
func ConceptThreshold(embedderID string) float64 {
	switch {
	case strings.HasPrefix(embedderID, OfflinePrefix):
		return OfflineConceptThreshold
	case strings.HasPrefix(embedderID, MiniLMPrefix):
		return MiniLMConceptThreshold
	default: // "ollama/..." and anything else
		return OllamaConceptThreshold
	}
}
