package assemble

// Provenance: what kind of node it is — the person's input, a model's
// output, an analysis (summary) — scored by Config.Provenance. Verify
// leans on it.
const Provenance SignalID = 4

func init() { register(provenanceSignal{}) }

type provenanceSignal struct{}

func (provenanceSignal) ID() SignalID { return Provenance }
func (provenanceSignal) Name() string { return "provenance" }
func (provenanceSignal) Weight(p Purpose) float64 {
	return byPurpose{Answer: 0.04, Verify: 0.12, Explore: 0.05, Decide: 0.10, Create: 0.05}.weight(p)
}

func (provenanceSignal) Score(f *Facts) float64 { return f.Config.Provenance[f.Kind] }
