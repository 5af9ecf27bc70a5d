package chat

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCalibration(t *testing.T) {
	type obs struct {
		model             string
		estimated, actual int
	}
	for _, tc := range []struct {
		name    string
		obs     []obs
		model   string
		want    float64
		samples int
	}{
		{"unknown model", nil, "llama3.2", 1, 0},
		{"first observation", []obs{{"llama3.2", 1000, 1200}}, "llama3.2", 1.2, 1},
		{"moving average", []obs{{"llama3.2", 1000, 1200}, {"llama3.2", 1000, 1000}}, "llama3.2", 0.7*1.2 + 0.3*1.0, 2},
		{":latest is the same model", []obs{{"llama3.2:latest", 1000, 1100}}, "LLaMA3.2", 1.1, 1},
		{"per model", []obs{{"llama3.2", 1000, 1500}}, "qwen3:4b", 1, 0},
		{"clamped high", []obs{{"m", 100, 1000}}, "m", MaxFactor, 1},
		{"clamped low", []obs{{"m", 1000, 100}}, "m", MinFactor, 1},
		{"tiny prompts ignored", []obs{{"m", 10, 30}}, "m", 1, 0},
		{"zero actual ignored", []obs{{"m", 1000, 0}}, "m", 1, 0},
		{"no model ignored", []obs{{"", 1000, 1500}}, "", 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c Calibration // the zero value works
			for _, o := range tc.obs {
				c.Observe(o.model, o.estimated, o.actual)
			}
			assert.InDelta(t, tc.want, c.Factor(tc.model), 1e-9)
			assert.Equal(t, tc.samples, c.Samples(tc.model))
		})
	}
	var nilCal *Calibration
	assert.Equal(t, 1.0, nilCal.Factor("m"))
	c := &Calibration{}
	c.Observe("m", 1000, 1250)
	assert.Equal(t, 1250, c.Scale("m", 1000))
	assert.Equal(t, 2, c.Scale("m", 1), "rounds up")
}

func TestCalibrationJSON(t *testing.T) {
	c := &Calibration{}
	c.Observe("llama3.2", 1000, 1100)
	c.Observe("qwen3:4b", 1000, 900)
	b, err := json.Marshal(c)
	require.NoError(t, err)
	assert.JSONEq(t, `{"llama3.2":{"factor":1.1,"samples":1},"qwen3:4b":{"factor":0.9,"samples":1}}`, string(b))

	var back Calibration
	require.NoError(t, json.Unmarshal(b, &back))
	assert.InDelta(t, 1.1, back.Factor("llama3.2"), 1e-9)
	assert.InDelta(t, 0.9, back.Factor("qwen3:4b"), 1e-9)

	require.NoError(t, json.Unmarshal([]byte(`{"a":{"factor":9},"b":{"factor":-1},"C:latest":{"factor":1.3,"samples":4}}`), &back))
	assert.Equal(t, MaxFactor, back.Factor("a"))
	assert.Equal(t, 1.0, back.Factor("b"))
	assert.InDelta(t, 1.3, back.Factor("c"), 1e-9)
	assert.Equal(t, 0.0, back.Factor("llama3.2")-1, "unmarshal replaces")

	b, err = json.Marshal(&Calibration{})
	require.NoError(t, err)
	assert.Equal(t, "{}", string(b))
	assert.Error(t, json.Unmarshal([]byte(`[1]`), &back))
}

func TestCalibrationConcurrent(t *testing.T) {
	c := &Calibration{}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			model := fmt.Sprint("m", i%2)
			for range 200 {
				c.Observe(model, 1000, 1200)
				_ = c.Factor(model)
				_, _ = json.Marshal(c)
			}
		})
	}
	wg.Wait()
	assert.InDelta(t, 1.2, c.Factor("m0"), 1e-9)
	assert.Equal(t, 800, c.Samples("m1"))
}
