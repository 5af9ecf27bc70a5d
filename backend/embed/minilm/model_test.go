package minilm

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// tinyConfig is a BERT small enough to check against a naive reference.
var tinyConfig = Config{Hidden: 8, Layers: 2, Heads: 2, Intermediate: 13, Vocab: 16, MaxPositions: 300, TypeVocab: 2, LayerNormEps: 1e-12, HiddenAct: "gelu"}

// tinyWeights makes random tensors of the checkpoint's names and [out, in]
// shapes for cfg, with an optional name prefix.
func tinyWeights(cfg Config, prefix string, seed int64) map[string]tensor {
	r := rand.New(rand.NewSource(seed))
	H, I := cfg.Hidden, cfg.Intermediate
	ts := map[string]tensor{}
	add := func(name string, scale, offset float64, shape ...int) {
		n := 1
		for _, d := range shape {
			n *= d
		}
		v := make([]float64, n)
		for i := range v {
			v[i] = offset + scale*r.NormFloat64()
		}
		ts[prefix+name] = tensor{shape: shape, v: v}
	}
	add("embeddings.word_embeddings.weight", 1, 0, cfg.Vocab, H)
	add("embeddings.position_embeddings.weight", 0.5, 0, cfg.MaxPositions, H)
	add("embeddings.token_type_embeddings.weight", 0.5, 0, cfg.TypeVocab, H)
	add("embeddings.LayerNorm.weight", 0.1, 1, H)
	add("embeddings.LayerNorm.bias", 0.1, 0, H)
	for l := 0; l < cfg.Layers; l++ {
		p := fmt.Sprintf("encoder.layer.%d.", l)
		for _, n := range []string{"query", "key", "value"} {
			add(p+"attention.self."+n+".weight", 0.5, 0, H, H)
			add(p+"attention.self."+n+".bias", 0.1, 0, H)
		}
		add(p+"attention.output.dense.weight", 0.3, 0, H, H)
		add(p+"attention.output.dense.bias", 0.1, 0, H)
		add(p+"attention.output.LayerNorm.weight", 0.1, 1, H)
		add(p+"attention.output.LayerNorm.bias", 0.1, 0, H)
		add(p+"intermediate.dense.weight", 0.5, 0, I, H)
		add(p+"intermediate.dense.bias", 0.1, 0, I)
		add(p+"output.dense.weight", 0.3, 0, H, I)
		add(p+"output.dense.bias", 0.1, 0, H)
		add(p+"output.LayerNorm.weight", 0.1, 1, H)
		add(p+"output.LayerNorm.bias", 0.1, 0, H)
	}
	return ts
}

type tensor struct {
	shape []int
	v     []float64
}

// encodeSafetensors writes ts in the safetensors layout with dtype "F32"
// or "F16", rounding the values in ts to what the file holds.
func encodeSafetensors(ts map[string]tensor, dtype string) []byte {
	names := make([]string, 0, len(ts))
	for n := range ts {
		names = append(names, n)
	}
	sort.Strings(names)
	header := map[string]any{"__metadata__": map[string]string{"format": "pt"}}
	var data []byte
	for _, n := range names {
		t := ts[n]
		start := len(data)
		for i, x := range t.v {
			if dtype == "F16" {
				h := f32ToF16(float32(x))
				data = binary.LittleEndian.AppendUint16(data, h)
				t.v[i] = float64(f16ToF32(h))
			} else {
				data = binary.LittleEndian.AppendUint32(data, math.Float32bits(float32(x)))
				t.v[i] = float64(float32(x))
			}
		}
		header[n] = map[string]any{"dtype": dtype, "shape": t.shape, "data_offsets": []int{start, len(data)}}
	}
	hj, _ := json.Marshal(header)
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(hj)))
	return append(append(out, hj...), data...)
}

// f32ToF16 rounds a normal-range float32 to half precision (to nearest,
// ties away), enough for test data.
func f32ToF16(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23&0xff) - 127 + 15
	mant := b & 0x7fffff
	if exp <= 0 {
		return sign
	}
	h := uint32(exp)<<10 | mant>>13
	if mant&0x1000 != 0 {
		h++
	}
	return sign | uint16(h)
}

// naiveForward is the BERT encoder and sentence-transformers pooling written
// plainly in float64 from the checkpoint's [out, in] weights.
func naiveForward(cfg Config, ts map[string]tensor, prefix string, ids []int32) []float64 {
	H, I, n := cfg.Hidden, cfg.Intermediate, len(ids)
	w := func(name string) []float64 { return ts[prefix+name].v }
	linear := func(x [][]float64, W, b []float64, out, in int) [][]float64 {
		y := make([][]float64, len(x))
		for i := range x {
			y[i] = make([]float64, out)
			for o := 0; o < out; o++ {
				s := b[o]
				for k := 0; k < in; k++ {
					s += W[o*in+k] * x[i][k]
				}
				y[i][o] = s
			}
		}
		return y
	}
	ln := func(x [][]float64, g, b []float64) {
		for _, row := range x {
			var m, v float64
			for _, a := range row {
				m += a
			}
			m /= float64(len(row))
			for _, a := range row {
				v += (a - m) * (a - m)
			}
			v /= float64(len(row))
			for j := range row {
				row[j] = (row[j]-m)/math.Sqrt(v+cfg.LayerNormEps)*g[j] + b[j]
			}
		}
	}
	h := make([][]float64, n)
	for i, id := range ids {
		h[i] = make([]float64, H)
		for j := 0; j < H; j++ {
			h[i][j] = w("embeddings.word_embeddings.weight")[int(id)*H+j] + w("embeddings.position_embeddings.weight")[i*H+j] + w("embeddings.token_type_embeddings.weight")[j]
		}
	}
	ln(h, w("embeddings.LayerNorm.weight"), w("embeddings.LayerNorm.bias"))
	d := H / cfg.Heads
	for l := 0; l < cfg.Layers; l++ {
		p := fmt.Sprintf("encoder.layer.%d.", l)
		q := linear(h, w(p+"attention.self.query.weight"), w(p+"attention.self.query.bias"), H, H)
		k := linear(h, w(p+"attention.self.key.weight"), w(p+"attention.self.key.bias"), H, H)
		v := linear(h, w(p+"attention.self.value.weight"), w(p+"attention.self.value.bias"), H, H)
		ctx := make([][]float64, n)
		for i := range ctx {
			ctx[i] = make([]float64, H)
			for hd := 0; hd < cfg.Heads; hd++ {
				s := make([]float64, n)
				var sum float64
				for j := 0; j < n; j++ {
					for t := 0; t < d; t++ {
						s[j] += q[i][hd*d+t] * k[j][hd*d+t]
					}
					s[j] = math.Exp(s[j] / math.Sqrt(float64(d)))
					sum += s[j]
				}
				for j := 0; j < n; j++ {
					for t := 0; t < d; t++ {
						ctx[i][hd*d+t] += s[j] / sum * v[j][hd*d+t]
					}
				}
			}
		}
		a := linear(ctx, w(p+"attention.output.dense.weight"), w(p+"attention.output.dense.bias"), H, H)
		for i := range h {
			for j := range h[i] {
				h[i][j] += a[i][j]
			}
		}
		ln(h, w(p+"attention.output.LayerNorm.weight"), w(p+"attention.output.LayerNorm.bias"))
		f := linear(h, w(p+"intermediate.dense.weight"), w(p+"intermediate.dense.bias"), I, H)
		for _, row := range f {
			for j, x := range row {
				row[j] = 0.5 * x * (1 + math.Erf(x/math.Sqrt2))
			}
		}
		o := linear(f, w(p+"output.dense.weight"), w(p+"output.dense.bias"), H, I)
		for i := range h {
			for j := range h[i] {
				h[i][j] += o[i][j]
			}
		}
		ln(h, w(p+"output.LayerNorm.weight"), w(p+"output.LayerNorm.bias"))
	}
	out := make([]float64, H)
	var ss float64
	for j := range out {
		for i := range h {
			out[j] += h[i][j]
		}
		out[j] /= float64(n)
		ss += out[j] * out[j]
	}
	for j := range out {
		out[j] /= math.Sqrt(ss)
	}
	return out
}

// TestForwardMatchesNaive checks the optimised forward pass (transposed,
// fused, pooled, parallel) against naiveForward on random tiny weights, in
// F32 and F16 files, with and without the "bert." prefix, for short and
// long sequences (the long ones take the parallel paths), with the kernel
// this machine runs and with the portable one.
func TestForwardMatchesNaive(t *testing.T) {
	forwardMatchesNaive(t)
	if hasFMA {
		hasFMA = false
		defer func() { hasFMA = true }()
		forwardMatchesNaive(t)
	}
}

func forwardMatchesNaive(t *testing.T) {
	cfg := tinyConfig
	cj, _ := json.Marshal(cfg)
	for _, c := range []struct{ dtype, prefix string }{{"F32", ""}, {"F16", "bert."}} {
		ts := tinyWeights(cfg, c.prefix, 1)
		st, err := parseSafetensors(encodeSafetensors(ts, c.dtype))
		if err != nil {
			t.Fatal(err)
		}
		var cfg2 Config
		_ = json.Unmarshal(cj, &cfg2)
		m, err := loadModel(st, cfg2)
		if err != nil {
			t.Fatalf("%s %q: %v", c.dtype, c.prefix, err)
		}
		r := rand.New(rand.NewSource(2))
		for _, n := range []int{1, 2, 7, 64, 256} {
			ids := make([]int32, n)
			for i := range ids {
				ids[i] = int32(r.Intn(cfg.Vocab))
			}
			got, err := m.forward(ids)
			if err != nil {
				t.Fatal(err)
			}
			want := naiveForward(cfg, ts, c.prefix, ids)
			for j := range want {
				if math.Abs(float64(got[j])-want[j]) > 1e-4 {
					t.Errorf("%s %q n=%d, FMA kernel %v: dim %d = %.6f, naive %.6f", c.dtype, c.prefix, n, hasFMA, j, got[j], want[j])
					break
				}
			}
		}
	}
}

func TestLoadModelErrors(t *testing.T) {
	cfg := tinyConfig
	ts := tinyWeights(cfg, "", 1)
	delete(ts, "encoder.layer.1.output.dense.bias")
	st, _ := parseSafetensors(encodeSafetensors(ts, "F32"))
	if _, err := loadModel(st, cfg); err == nil || !strings.Contains(err.Error(), "encoder.layer.1.output.dense.bias") {
		t.Errorf("missing tensor: err = %v", err)
	}
	ts = tinyWeights(cfg, "", 1)
	ts["encoder.layer.0.intermediate.dense.weight"] = tensor{shape: []int{cfg.Hidden, cfg.Intermediate}, v: make([]float64, cfg.Hidden*cfg.Intermediate)}
	st, _ = parseSafetensors(encodeSafetensors(ts, "F32"))
	if _, err := loadModel(st, cfg); err == nil || !strings.Contains(err.Error(), "shape") {
		t.Errorf("transposed shape: err = %v", err)
	}
	bad := cfg
	bad.Heads = 3
	if _, err := loadModel(st, bad); err == nil {
		t.Error("hidden not a multiple of heads: no error")
	}
}

func TestForwardErrors(t *testing.T) {
	st, _ := parseSafetensors(encodeSafetensors(tinyWeights(tinyConfig, "", 1), "F32"))
	m, err := loadModel(st, tinyConfig)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.forward(nil); err == nil {
		t.Error("no tokens: no error")
	}
	if _, err := m.forward([]int32{int32(tinyConfig.Vocab)}); err == nil {
		t.Error("id outside the vocabulary: no error")
	}
	if _, err := m.forward(make([]int32, tinyConfig.MaxPositions+1)); err == nil {
		t.Error("too many tokens: no error")
	}
}

// TestForwardDeterministic checks that the vector does not depend on the
// number of workers (native GOMAXPROCS versus 1 in a browser).
func TestForwardDeterministic(t *testing.T) {
	st, _ := parseSafetensors(encodeSafetensors(tinyWeights(tinyConfig, "", 5), "F32"))
	m, err := loadModel(st, tinyConfig)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]int32, 101)
	for i := range ids {
		ids[i] = int32(i % tinyConfig.Vocab)
	}
	var ref []float32
	for _, procs := range []int{1, 2, 3, 8} {
		old := runtime.GOMAXPROCS(procs)
		got, err := m.forward(ids)
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		if ref == nil {
			ref = got
			continue
		}
		for j := range ref {
			if got[j] != ref[j] {
				t.Fatalf("GOMAXPROCS %d: dim %d = %g, with 1: %g", procs, j, got[j], ref[j])
			}
		}
	}
}
