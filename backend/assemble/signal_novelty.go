package assemble

// Novelty: 1 − the highest similarity to a node selected before this one
// (maximal marginal relevance). It is set while selecting (select.go), not
// from the candidate's facts, and stays out of the composite score; its
// weight is the MMR trade-off. Explore and create lean on it.
const Novelty SignalID = 7

func init() { register(noveltySignal{}) }

type noveltySignal struct{}

func (noveltySignal) ID() SignalID { return Novelty }
func (noveltySignal) Name() string { return "novelty" }
func (noveltySignal) Weight(p Purpose) float64 {
	return byPurpose{Answer: 0.15, Verify: 0.10, Explore: 0.40, Decide: 0.10, Create: 0.40}.weight(p)
}

// Score is 0: novelty is measured while selecting.
func (noveltySignal) Score(*Facts) float64 { return 0 }

func (noveltySignal) whileSelecting() {}
