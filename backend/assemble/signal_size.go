package assemble

// Size: prefers nodes that leave room for others, 1 − tokens/budget.
const Size SignalID = 3

func init() { register(sizeSignal{}) }

type sizeSignal struct{}

func (sizeSignal) ID() SignalID { return Size }
func (sizeSignal) Name() string { return "size" }
func (sizeSignal) Weight(p Purpose) float64 {
	return byPurpose{Answer: 0.04, Verify: 0.03, Explore: 0.05, Decide: 0.03, Create: 0.10}.weight(p)
}

func (sizeSignal) Score(f *Facts) float64 { return round4(SizeSignal(f.Tokens, f.Budget)) }

// SizeSignal prefers nodes that leave room for others: 1 − tokens/budget.
func SizeSignal(tokens, budget int) float64 {
	if budget <= 0 {
		return 0
	}
	return clamp01(1 - float64(tokens)/float64(budget))
}
