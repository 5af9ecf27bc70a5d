package chat

import (
	"encoding/json"
	"math"
	"sync"
)

// Calibration learns, per model, how many tokens Ollama really counts
// (prompt_eval_count) for each token the caller's counter estimated: local
// models have their own tokenizers and chat templates, so a cl100k count is
// close but not exact. The factor is an exponential moving average of
// actual/estimated, clamped to [MinFactor, MaxFactor]; it is 1 for a model
// never seen. The zero value is ready to use; it is safe for concurrent use
// and marshals to JSON ({"llama3.2": {"factor": 1.12, "samples": 7}}) so
// the caller can persist it.
type Calibration struct {
	mu     sync.Mutex
	models map[string]calibrationEntry
}

type calibrationEntry struct {
	Factor  float64 `json:"factor"`
	Samples int     `json:"samples"`
}

// Bounds and smoothing of the calibration.
const (
	MinFactor = 0.5
	MaxFactor = 2.0
	// calibrationWeight is the weight of a new observation in the average.
	calibrationWeight = 0.3
	// minCalibrationTokens: smaller prompts are dominated by the chat
	// template's fixed overhead and say little about the tokenizer.
	minCalibrationTokens = 16
)

// Observe records that a prompt the counter estimated at estimated tokens
// was counted by Ollama as actual. Observations with either count below
// 16 are ignored, as is an unnamed model.
func (c *Calibration) Observe(model string, estimated, actual int) {
	key := canonicalModel(model)
	if key == "" || estimated < minCalibrationTokens || actual < minCalibrationTokens {
		return
	}
	ratio := clampFactor(float64(actual) / float64(estimated))
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.models == nil {
		c.models = map[string]calibrationEntry{}
	}
	e, seen := c.models[key]
	if !seen {
		e.Factor = ratio
	} else {
		e.Factor = (1-calibrationWeight)*e.Factor + calibrationWeight*ratio
	}
	e.Factor = clampFactor(e.Factor)
	e.Samples++
	c.models[key] = e
}

// Factor is what to multiply an estimate by to predict Ollama's count for
// model: 1 when unknown, always within [MinFactor, MaxFactor].
func (c *Calibration) Factor(model string) float64 {
	if c == nil {
		return 1
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.models[canonicalModel(model)]; ok {
		return clampFactor(e.Factor)
	}
	return 1
}

// Samples is how many observations the factor for model rests on.
func (c *Calibration) Samples(model string) int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.models[canonicalModel(model)].Samples
}

// Scale applies model's factor to an estimate, rounding up.
func (c *Calibration) Scale(model string, estimated int) int {
	return int(math.Ceil(float64(estimated) * c.Factor(model)))
}

// MarshalJSON writes the per-model factors.
func (c *Calibration) MarshalJSON() ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.models == nil {
		return []byte("{}"), nil
	}
	return json.Marshal(c.models)
}

// UnmarshalJSON replaces the factors with those in data; factors outside
// the bounds are clamped and non-numbers dropped.
func (c *Calibration) UnmarshalJSON(data []byte) error {
	var m map[string]calibrationEntry
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	clean := make(map[string]calibrationEntry, len(m))
	for k, e := range m {
		if math.IsNaN(e.Factor) || e.Factor <= 0 || canonicalModel(k) == "" {
			continue
		}
		e.Factor = clampFactor(e.Factor)
		clean[canonicalModel(k)] = e
	}
	c.mu.Lock()
	c.models = clean
	c.mu.Unlock()
	return nil
}

func clampFactor(f float64) float64 { return min(MaxFactor, max(MinFactor, f)) }
