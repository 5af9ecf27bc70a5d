package assemble

import "math"

// Hop distance: how close the candidate is to the question's concepts in
// the graph — 1 on one of the query's best concepts (or one edge from
// it), halving with every further edge, 0 beyond the ranking's MaxHops or
// when unreachable. The other high signal after semantic relevance.
const Hop SignalID = 1

func init() { register(hopSignal{}) }

type hopSignal struct{}

func (hopSignal) ID() SignalID { return Hop }
func (hopSignal) Name() string { return "hop" }
func (hopSignal) Weight(p Purpose) float64 {
	return byPurpose{Answer: 0.15, Verify: 0.10, Explore: 0.20, Decide: 0.10, Create: 0.15}.weight(p)
}

func (hopSignal) Score(f *Facts) float64 { return HopSignal(f.Hops, f.MaxHops) }

// HopSignal is 1 for a node on one of the query's best concepts, halving
// with every further edge, 0 beyond maxHops or when unreachable (hops < 0).
func HopSignal(hops, maxHops int) float64 {
	if hops < 0 || hops > maxHops {
		return 0
	}
	if hops <= 1 {
		return 1
	}
	return math.Pow(0.5, float64(hops-1))
}
