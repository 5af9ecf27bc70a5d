package assemble

// Semantic relevance: how well the candidate matches the question, keyword
// (BM25 over words and word pairs) and vector evidence fused
// (SemanticRelevance), or its enclosing section's share when that is more
// (Config.Inherit). It leads every preset (seed §5: "High") and alone
// decides the baselines.
const Semantic SignalID = 0

func init() { register(semanticSignal{}) }

type semanticSignal struct{}

func (semanticSignal) ID() SignalID { return Semantic }
func (semanticSignal) Name() string { return "semantic" }
func (semanticSignal) Weight(p Purpose) float64 {
	return byPurpose{Answer: 0.60, Verify: 0.45, Explore: 0.40, Decide: 0.45, Create: 0.40}.weight(p)
}

func (semanticSignal) Score(f *Facts) float64 { return f.Semantic }

// SemanticRelevance mixes keyword and vector evidence: each is normalised
// to the query's best candidate, then mixed by keywordWeight.
func SemanticRelevance(keyword, keywordMax, cosine, cosineMax, keywordWeight float64) float64 {
	var k, v float64
	if keywordMax > 0 {
		k = keyword / keywordMax
	}
	if cosineMax > 0 && cosine > 0 {
		v = cosine / cosineMax
	}
	if keywordMax <= 0 { // no keyword evidence at all: vectors alone decide
		return clamp01(v)
	}
	return clamp01(keywordWeight*k + (1-keywordWeight)*v)
}
