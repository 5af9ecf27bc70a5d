package assemble

// Trust: how much the person trusts the source — by collection or path
// prefix (Config.Trust, else Config.DefaultTrust). Verify leans on it.
const Trust SignalID = 6

func init() { register(trustSignal{}) }

type trustSignal struct{}

func (trustSignal) ID() SignalID { return Trust }
func (trustSignal) Name() string { return "trust" }
func (trustSignal) Weight(p Purpose) float64 {
	return byPurpose{Answer: 0.05, Verify: 0.20, Explore: 0.10, Decide: 0.15, Create: 0.05}.weight(p)
}

func (trustSignal) Score(f *Facts) float64 {
	if !f.HasDocument {
		return 0
	}
	return f.Config.TrustOf(f.Collection, f.Path)
}
