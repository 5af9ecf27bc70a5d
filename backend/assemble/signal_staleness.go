package assemble

import (
	"math"
	"time"
)

// Staleness: recency of use — exponential decay with the time since the
// candidate was last read into a context (or created), 1 now, 0.5 after
// one half-life (Config.HalfLife). Decide leans on it.
const Staleness SignalID = 2

func init() { register(stalenessSignal{}) }

type stalenessSignal struct{}

func (stalenessSignal) ID() SignalID { return Staleness }
func (stalenessSignal) Name() string { return "staleness" }
func (stalenessSignal) Weight(p Purpose) float64 {
	return byPurpose{Answer: 0.04, Verify: 0.05, Explore: 0.05, Decide: 0.12, Create: 0.05}.weight(p)
}

func (stalenessSignal) Score(f *Facts) float64 {
	return round4(StalenessAt(f.Touched, f.Now, f.HalfLife))
}

// StalenessAt decays exponentially with the time since the node was last
// accessed (or created): 1 now, 0.5 after one half-life.
func StalenessAt(last, now time.Time, halfLife time.Duration) float64 {
	if last.IsZero() || halfLife <= 0 {
		return 0.5
	}
	age := now.Sub(last)
	if age <= 0 {
		return 1
	}
	return math.Exp2(-float64(age) / float64(halfLife))
}
