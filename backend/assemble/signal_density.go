package assemble

// Density: link density — the share of the candidate's concepts that are
// near the question (within one edge of its seed concepts), against the
// best candidate's share. A share, not a count: counting rewarded long,
// generic sections that touch every concept (SciFact nDCG@10 −0.013).
const Density SignalID = 5

func init() { register(densitySignal{}) }

type densitySignal struct{}

func (densitySignal) ID() SignalID { return Density }
func (densitySignal) Name() string { return "density" }
func (densitySignal) Weight(p Purpose) float64 {
	return byPurpose{Answer: 0.08, Verify: 0.05, Explore: 0.15, Decide: 0.05, Create: 0.10}.weight(p)
}

func (densitySignal) Score(f *Facts) float64 {
	return round4(DensityOf(f.TopicShare, f.BestTopicShare))
}

// DensityOf is a share of concepts near the question against the best
// candidate's share.
func DensityOf(share, bestShare float64) float64 {
	if bestShare <= 0 {
		return 0
	}
	return clamp01(share / bestShare)
}
