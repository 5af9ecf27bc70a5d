package assemble

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"gonum.org/v1/gonum/blas/blas32"
)

// The ranking signals. Each lives in a file of its own (signal_*.go): its
// SignalID, its default weight for every purpose and how it is computed
// from a candidate's Facts; it registers itself in that file's init. A
// candidate's Signals and a purpose's Weights are arrays indexed by
// SignalID, read and written in JSON by the signals' names in ID order.
// Adding a signal is one file (and its test), plus its line in the page's
// legend.

// SignalID is a signal's place: its index in Signals and Weights, and its
// turn in the weighted sum (a score depends on the order of its
// additions, so the order is fixed here, not left to registration).
type SignalID int

// MaxSignals bounds how many signals there can be.
const MaxSignals = 16

// Signal is one ranking signal.
type Signal interface {
	// ID is the signal's place (see SignalID).
	ID() SignalID
	// Name is its key in Signals, Weights and config.json's presets.
	Name() string
	// Weight is its default weight for a purpose.
	Weight(p Purpose) float64
	// Score is the signal for one candidate, in [0, 1].
	Score(f *Facts) float64
}

// selecting marks a signal set while selecting (novelty), which the
// composite score leaves out.
type selecting interface{ whileSelecting() }

var (
	// registry holds the signals by ID; it is filled by the signal files'
	// init functions and only read after.
	registry    [MaxSignals]Signal
	inComposite [MaxSignals]bool
	numSignals  int
	ordered     []Signal // the registered signals in ID order
)

// register adds a signal; a duplicate ID or name, or an ID out of range,
// is a programming error.
func register(s Signal) {
	id := s.ID()
	if id < 0 || id >= MaxSignals {
		panic(fmt.Sprintf("assemble: signal %s has ID %d, outside [0, %d)", s.Name(), id, MaxSignals))
	}
	if registry[id] != nil {
		panic(fmt.Sprintf("assemble: signals %s and %s share ID %d", registry[id].Name(), s.Name(), id))
	}
	for _, o := range registry {
		if o != nil && o.Name() == s.Name() {
			panic("assemble: two signals are named " + s.Name())
		}
	}
	registry[id] = s
	_, sel := s.(selecting)
	inComposite[id] = !sel
	numSignals = max(numSignals, int(id)+1)
	ordered = ordered[:0]
	for _, r := range registry[:numSignals] {
		if r != nil {
			ordered = append(ordered, r)
		}
	}
}

// AllSignals are the signals in ID order (the slice is shared: do not
// change it).
func AllSignals() []Signal { return ordered }

// SignalNames are the signals' names in ID order.
func SignalNames() []string {
	var out []string
	for _, s := range AllSignals() {
		out = append(out, s.Name())
	}
	return out
}

// Facts are what the signals read about one candidate.
type Facts struct {
	// Semantic is its relevance from the candidate search: keyword and
	// vector evidence fused (SemanticRelevance), or its enclosing
	// section's share when that is more.
	Semantic float64
	// Hops is its distance from the question's concepts (−1: out of
	// reach); MaxHops the ranking's reach.
	Hops, MaxHops int
	// Touched is when it was last read into a context (else created).
	Touched, Now time.Time
	HalfLife     time.Duration
	// Tokens is its size; Budget the context budget.
	Tokens, Budget int
	// Kind is its provenance (input, output, analysis).
	Kind string
	// Collection and Path name its document (HasDocument false: none).
	Collection, Path string
	HasDocument      bool
	// TopicShare is the share of its concepts near the question;
	// BestTopicShare the best among the candidates.
	TopicShare, BestTopicShare float64
	// Config is the workspace's ranking configuration.
	Config *Config
}

// Signals are a candidate's ranking signals, each in [0, 1], by SignalID.
type Signals [MaxSignals]float64

// Weights weigh the signals of a composite score, by SignalID. They need
// not sum to 1: the score divides by their sum. Novelty's weight is the
// MMR trade-off applied while selecting (0 = ignore redundancy, 1 = only
// novelty).
type Weights [MaxSignals]float64

// MarshalJSON writes the signals by name, in ID order.
func (s Signals) MarshalJSON() ([]byte, error) { return marshalByName(s) }

// UnmarshalJSON reads signals by name.
func (s *Signals) UnmarshalJSON(b []byte) error { return unmarshalByName(b, (*[MaxSignals]float64)(s)) }

// MarshalJSON writes the weights by name, in ID order.
func (w Weights) MarshalJSON() ([]byte, error) { return marshalByName(w) }

// UnmarshalJSON reads weights by name.
func (w *Weights) UnmarshalJSON(b []byte) error { return unmarshalByName(b, (*[MaxSignals]float64)(w)) }

// JSONNames are the members of the signals' JSON: the signals' names in
// ID order (tools/wiretypes types the page's side with them).
func (Signals) JSONNames() []string { return SignalNames() }

// JSONNames are the members of the weights' JSON, as Signals'.
func (Weights) JSONNames() []string { return SignalNames() }

func marshalByName(v [MaxSignals]float64) ([]byte, error) {
	b := []byte{'{'}
	for i, s := range AllSignals() {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, s.Name()...)
		b = append(b, '"', ':')
		x, err := json.Marshal(v[s.ID()])
		if err != nil {
			return nil, fmt.Errorf("signal %s: %w", s.Name(), err)
		}
		b = append(b, x...)
	}
	return append(b, '}'), nil
}

func unmarshalByName(b []byte, v *[MaxSignals]float64) error {
	var m map[string]float64
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*v = [MaxSignals]float64{}
	for _, s := range AllSignals() {
		if x, ok := m[s.Name()]; ok {
			v[s.ID()] = x
		}
	}
	return nil
}

// Composite combines the signals (all but novelty, which applies while
// selecting) by weight, normalised by the weights' sum: a score in [0, 1].
// The sums run in ID order.
func (s Signals) Composite(w Weights) float64 {
	sum := 0.0
	for id := range numSignals {
		if inComposite[id] {
			sum += w[id]
		}
	}
	if sum <= 0 {
		return s[Semantic]
	}
	v := 0.0
	for id := range numSignals {
		if inComposite[id] {
			v += w[id] * s[id]
		}
	}
	return clamp01(v / sum)
}

// String lists the signals by name (tests' messages).
func (s Signals) String() string {
	var parts []string
	for _, sig := range AllSignals() {
		parts = append(parts, fmt.Sprintf("%s %g", sig.Name(), s[sig.ID()]))
	}
	return strings.Join(parts, ", ")
}

// byPurpose is a signal's default weights, one per purpose.
type byPurpose map[Purpose]float64

func (b byPurpose) weight(p Purpose) float64 { return b[p] }

// cosine of two unit vectors (0 when either is missing). The dot product
// is gonum's (SIMD assembly on amd64, arm64): novelty takes it between
// every pair of relevant candidates, ~0.4 ms a question at 768
// dimensions with a plain loop, whose one float32 sum waits on each
// addition.
func cosine(a, b []float32) float64 {
	if len(a) == 0 || len(a) != len(b) {
		return 0
	}
	return float64(blas32.Dot(blas32.Vector{N: len(a), Inc: 1, Data: a}, blas32.Vector{N: len(b), Inc: 1, Data: b}))
}
