package minilm

import (
	"fmt"
	"math"
	"runtime"
	"sync"
)

// Config is the part of a BERT config.json the forward pass needs.
type Config struct {
	Hidden       int     `json:"hidden_size"`
	Layers       int     `json:"num_hidden_layers"`
	Heads        int     `json:"num_attention_heads"`
	Intermediate int     `json:"intermediate_size"`
	Vocab        int     `json:"vocab_size"`
	MaxPositions int     `json:"max_position_embeddings"`
	TypeVocab    int     `json:"type_vocab_size"`
	LayerNormEps float64 `json:"layer_norm_eps"`
	HiddenAct    string  `json:"hidden_act"`
}

func (c Config) check() error {
	switch {
	case c.Hidden <= 0 || c.Layers <= 0 || c.Heads <= 0 || c.Intermediate <= 0 || c.Vocab <= 0 || c.MaxPositions <= 0:
		return fmt.Errorf("sizes must be positive: %+v", c)
	case c.Hidden%c.Heads != 0:
		return fmt.Errorf("hidden_size %d is not a multiple of num_attention_heads %d", c.Hidden, c.Heads)
	case c.HiddenAct != "" && c.HiddenAct != "gelu":
		return fmt.Errorf("hidden_act %q is not supported (only gelu)", c.HiddenAct)
	}
	return nil
}

// layer is one transformer block. Every matrix is packed (see pack) from
// the checkpoint's [out, in]; Q, K and V are fused into one
// [hidden, 3·hidden] matrix.
type layer struct {
	qkv        packed // H → 3H
	attn       packed // H → H
	ln1G, ln1B []float32
	ffn1       packed // H → I
	ffn2       packed // I → H
	ln2G, ln2B []float32
}

// model holds a BERT encoder's weights as float32.
type model struct {
	cfg       Config
	word, pos []float32 // [V][H], [P][H]; word is nil when wordHalf is set
	// wordHalf holds an F16 checkpoint's word embeddings undecoded (half
	// the memory of float32, 22 MiB for MiniLM); rows are decoded exactly
	// as they are looked up.
	wordHalf   []uint16
	typ0       []float32 // token type 0's embedding, [H]
	embG, embB []float32
	layers     []layer
	pool       sync.Pool // of *scratch
}

// loadModel decodes a BERT encoder's tensors from st, whose names may carry
// a "bert." prefix or none.
func loadModel(st *safetensors, cfg Config) (*model, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	prefix := ""
	if _, ok := st.tensors["bert.embeddings.word_embeddings.weight"]; ok {
		prefix = "bert."
	}
	H, I := cfg.Hidden, cfg.Intermediate
	var firstErr error
	get := func(name string, shape ...int) []float32 {
		if firstErr != nil {
			return nil
		}
		v, err := st.float32s(prefix+name, shape...)
		if err != nil {
			firstErr = err
		}
		return v
	}
	// transposed decodes an [out, in] matrix and returns it as [in, out].
	transposed := func(name string, out, in int) []float32 {
		w := get(name, out, in)
		if w == nil {
			return nil
		}
		return transpose(w, out, in)
	}
	m := &model{cfg: cfg}
	if st.tensors[prefix+"embeddings.word_embeddings.weight"].DType == "F16" {
		var err error
		if m.wordHalf, err = st.halfs(prefix+"embeddings.word_embeddings.weight", cfg.Vocab, H); err != nil {
			return nil, err
		}
	} else {
		m.word = get("embeddings.word_embeddings.weight", cfg.Vocab, H)
	}
	m.pos = get("embeddings.position_embeddings.weight", cfg.MaxPositions, H)
	if typ := get("embeddings.token_type_embeddings.weight", max(cfg.TypeVocab, 1), H); typ != nil {
		m.typ0 = typ[:H]
	}
	m.embG = get("embeddings.LayerNorm.weight", H)
	m.embB = get("embeddings.LayerNorm.bias", H)
	for l := 0; l < cfg.Layers; l++ {
		p := fmt.Sprintf("encoder.layer.%d.", l)
		var ly layer
		q := transposed(p+"attention.self.query.weight", H, H)
		k := transposed(p+"attention.self.key.weight", H, H)
		v := transposed(p+"attention.self.value.weight", H, H)
		qb := get(p+"attention.self.query.bias", H)
		kb := get(p+"attention.self.key.bias", H)
		vb := get(p+"attention.self.value.bias", H)
		if firstErr == nil {
			qkvW := make([]float32, H*3*H)
			for r := 0; r < H; r++ {
				copy(qkvW[r*3*H:], q[r*H:(r+1)*H])
				copy(qkvW[r*3*H+H:], k[r*H:(r+1)*H])
				copy(qkvW[r*3*H+2*H:], v[r*H:(r+1)*H])
			}
			ly.qkv = pack(qkvW, append(append(append(make([]float32, 0, 3*H), qb...), kb...), vb...), H, 3*H)
		}
		attnW := transposed(p+"attention.output.dense.weight", H, H)
		attnB := get(p+"attention.output.dense.bias", H)
		ly.ln1G = get(p+"attention.output.LayerNorm.weight", H)
		ly.ln1B = get(p+"attention.output.LayerNorm.bias", H)
		ffn1W := transposed(p+"intermediate.dense.weight", I, H)
		ffn1B := get(p+"intermediate.dense.bias", I)
		ffn2W := transposed(p+"output.dense.weight", H, I)
		ffn2B := get(p+"output.dense.bias", H)
		ly.ln2G = get(p+"output.LayerNorm.weight", H)
		ly.ln2B = get(p+"output.LayerNorm.bias", H)
		if firstErr == nil {
			ly.attn = pack(attnW, attnB, H, H)
			ly.ffn1 = pack(ffn1W, ffn1B, H, I)
			ly.ffn2 = pack(ffn2W, ffn2B, I, H)
		}
		m.layers = append(m.layers, ly)
	}
	if firstErr != nil {
		return nil, firstErr
	}
	return m, nil
}

// transpose returns the [cols, rows] transpose of the row-major [rows, cols]
// matrix w.
func transpose(w []float32, rows, cols int) []float32 {
	t := make([]float32, len(w))
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			t[c*rows+r] = w[r*cols+c]
		}
	}
	return t
}

// scratch is the working memory of one forward pass, reused across calls
// (and grown when a call needs more).
type scratch struct {
	h, tmp, ctx []float32 // [n][H]
	qkv         []float32 // [n][3H]
	ffn         []float32 // [n][I]
	att         []float32 // [workers][attScratch(seq, d)]
	tail        []float32 // [blockRows][I]: matmul's last rows
}

func (m *model) scratch(n, seq int) *scratch {
	s, _ := m.pool.Get().(*scratch)
	H, I := m.cfg.Hidden, m.cfg.Intermediate
	if s == nil || len(s.h) < n*H || len(s.att) < workers()*attScratch(seq, H/m.cfg.Heads) {
		s = &scratch{
			h: make([]float32, n*H), tmp: make([]float32, n*H), ctx: make([]float32, n*H),
			qkv: make([]float32, n*3*H), ffn: make([]float32, n*I),
			att:  make([]float32, workers()*attScratch(seq, H/m.cfg.Heads)),
			tail: make([]float32, blockRows*max(H, I)),
		}
	}
	return s
}

// forward runs the encoder over ids (one sequence, no padding, so every
// token attends to every other) and returns the L2-normalised mean of the
// last hidden states over all tokens, [CLS] and [SEP] included, as
// sentence-transformers pools.
func (m *model) forward(ids []int32) ([]float32, error) {
	H := m.cfg.Hidden
	if len(ids) == 0 {
		return nil, fmt.Errorf("no tokens")
	}
	s, h, err := m.hidden(ids, len(ids))
	if err != nil {
		return nil, err
	}
	defer m.pool.Put(s)
	out := make([]float32, H)
	MeanPool(out, h, len(ids))
	var ss float64
	for j := range out {
		ss += float64(out[j]) * float64(out[j])
	}
	if ss > 0 {
		inv := float32(1 / math.Sqrt(ss))
		for j := range out {
			out[j] *= inv
		}
	}
	return out, nil
}

// MeanPool sets out (length H) to the mean of the n rows of h ([n][H]),
// summed in row order in float32: the pooling Encode applies before it
// normalises.
func MeanPool(out, h []float32, n int) {
	H := len(out)
	clear(out)
	for i := 0; i < n; i++ {
		for j, v := range h[i*H : (i+1)*H] {
			out[j] += v
		}
	}
	for j := range out {
		out[j] /= float32(n)
	}
}

// hidden runs the encoder over len(ids)/seq sequences of seq tokens each,
// laid end to end in ids: each sequence is encoded on its own (positions
// from 0, attention within the sequence only). It returns the scratch,
// which the caller puts back in the pool, and the last hidden states
// ([len(ids)][H]) inside it. A row's values do not depend on the other
// sequences in the batch nor on how the work was split.
func (m *model) hidden(ids []int32, seq int) (*scratch, []float32, error) {
	cfg := m.cfg
	n, H, I := len(ids), cfg.Hidden, cfg.Intermediate
	if n == 0 || seq <= 0 || n%seq != 0 {
		return nil, nil, fmt.Errorf("%d tokens do not make sequences of %d", n, seq)
	}
	if seq > cfg.MaxPositions {
		return nil, nil, fmt.Errorf("%d tokens, more than the model's %d positions", seq, cfg.MaxPositions)
	}
	for _, id := range ids {
		if id < 0 || int(id) >= cfg.Vocab {
			return nil, nil, fmt.Errorf("token id %d outside the vocabulary of %d", id, cfg.Vocab)
		}
	}
	s := m.scratch(n, seq)
	h := s.h[:n*H]
	for i, id := range ids {
		row := h[i*H : (i+1)*H]
		p := m.pos[(i%seq)*H:]
		if m.wordHalf != nil {
			w := m.wordHalf[int(id)*H:]
			for j := range row {
				row[j] = f16ToF32(w[j]) + p[j] + m.typ0[j]
			}
		} else {
			w := m.word[int(id)*H:]
			for j := range row {
				row[j] = w[j] + p[j] + m.typ0[j]
			}
		}
	}
	eps := float32(cfg.LayerNormEps)
	layerNorm(h, n, H, m.embG, m.embB, eps)
	qkv, ctx, tmp, ffn := s.qkv[:n*3*H], s.ctx[:n*H], s.tmp[:n*H], s.ffn[:n*I]
	for li := range m.layers {
		ly := &m.layers[li]
		matmul(qkv, h, ly.qkv, n, s.tail)
		m.attention(ctx, qkv, s.att, n, seq)
		matmul(tmp, ctx, ly.attn, n, s.tail)
		addInto(h, tmp)
		layerNorm(h, n, H, ly.ln1G, ly.ln1B, eps)
		matmul(ffn, h, ly.ffn1, n, s.tail)
		parallelFor(len(ffn), 4096, func(lo, hi int) { gelu(ffn[lo:hi]) })
		matmul(tmp, ffn, ly.ffn2, n, s.tail)
		addInto(h, tmp)
		layerNorm(h, n, H, ly.ln2G, ly.ln2B, eps)
	}
	return s, h, nil
}

// attention computes multi-head scaled dot-product self-attention within
// each sequence of seq tokens: qkv holds each token's query, key and value
// ([n][3H]); ctx receives each token's heads' weighted sums of the values
// of its own sequence ([n][H]). Each (sequence, head) pair is two matrix
// products through the kernel, scores = Q·Kᵀ and ctx = softmax(scores)·V,
// the pairs split among workers; att has attScratch(seq, d) floats per
// worker.
func (m *model) attention(ctx, qkv, att []float32, n, seq int) {
	H := m.cfg.Hidden
	nh := m.cfg.Heads
	d := H / nh
	scale := float32(1 / math.Sqrt(float64(d)))
	per := attScratch(seq, d)
	sp := roundUp(seq, panelW) // a row of scores, padded to whole panels
	vPanels := roundUp(d, panelW) / panelW
	var mu sync.Mutex
	next := 0
	parallelFor(n/seq*nh, 1, func(lo, hi int) {
		mu.Lock()
		var buf []float32
		if (next+1)*per <= len(att) {
			buf = att[next*per : (next+1)*per]
		} else { // GOMAXPROCS grew since the scratch was made
			buf = make([]float32, per)
		}
		next++
		mu.Unlock()
		kp, buf := buf[:sp*d], buf[sp*d:]                             // keys, packed: [sp/panelW][d][panelW]
		sc, buf := buf[:seq*sp], buf[seq*sp:]                         // scores, then weights: [seq][sp]
		vp, buf := buf[:vPanels*seq*panelW], buf[vPanels*seq*panelW:] // values, packed
		zero, buf := buf[:max(sp, vPanels*panelW)], buf[max(sp, vPanels*panelW):]
		tail := buf[:blockRows*max(seq, d)]
		clear(zero)
		for item := lo; item < hi; item++ {
			base, hd := item/nh*seq, item%nh
			q := qkv[base*3*H+hd*d:]
			clear(kp)
			for j := 0; j < seq; j++ {
				key := qkv[(base+j)*3*H+H+hd*d:][:d]
				p, t := j/panelW, j%panelW
				for c, v := range key {
					kp[(p*d+c)*panelW+t] = v
				}
			}
			gemm(sc, sp, q, 3*H, seq, d, kp, zero, 0, sp/panelW, sp, tailRows(tail, q, 3*H, d, seq))
			for i := 0; i < seq; i++ {
				softmax(sc[i*sp:i*sp+seq], scale)
			}
			clear(vp)
			for j := 0; j < seq; j++ {
				val := qkv[(base+j)*3*H+2*H+hd*d:][:d]
				for c, v := range val {
					vp[((c/panelW)*seq+j)*panelW+c%panelW] = v
				}
			}
			gemm(ctx[base*H+hd*d:], H, sc, sp, seq, seq, vp, zero, 0, vPanels, d, tailRows(tail, sc, sp, seq, seq))
		}
	})
}

// attScratch is how many floats attention needs a worker for sequences of
// seq tokens and heads of d dimensions.
func attScratch(seq, d int) int {
	sp, vp := roundUp(seq, panelW), roundUp(d, panelW)
	return sp*d + seq*sp + vp*seq + max(sp, vp) + blockRows*max(seq, d)
}

func roundUp(n, m int) int { return (n + m - 1) / m * m }

// softmax sets row to the softmax of its values times scale (positive),
// in place.
func softmax(row []float32, scale float32) {
	maxv := float32(math.Inf(-1))
	for _, v := range row {
		if v > maxv {
			maxv = v
		}
	}
	var sum float32
	for j, v := range row {
		e := float32(math.Exp(float64((v - maxv) * scale)))
		row[j] = e
		sum += e
	}
	inv := 1 / sum
	for j := range row {
		row[j] *= inv
	}
}

// layerNorm normalises each of x's n rows of width dim to mean 0 and
// variance 1 (plus eps), then scales by g and shifts by b, in place.
func layerNorm(x []float32, n, dim int, g, b []float32, eps float32) {
	for i := 0; i < n; i++ {
		row := x[i*dim : (i+1)*dim]
		var mean float32
		for _, v := range row {
			mean += v
		}
		mean /= float32(dim)
		var vr float32
		for _, v := range row {
			d := v - mean
			vr += d * d
		}
		vr /= float32(dim)
		inv := float32(1 / math.Sqrt(float64(vr+eps)))
		for j, v := range row {
			row[j] = (v-mean)*inv*g[j] + b[j]
		}
	}
}

// gelu applies GELU, 0.5·x·(1+erf(x/√2)), in place: by linear
// interpolation in a table of the exact values, 1/geluSteps apart on
// [-geluSpan, geluSpan] (an error under 4e-7, below float32's resolution
// of most activations), and 0 or x beyond, where the exact value differs
// from those by under 1e-8. math.Erf itself cost a third of a question's
// encoding.
func gelu(x []float32) {
	t := geluTable()
	const hi = 2 * geluSpan * geluSteps
	for i, v := range x {
		u := (v + geluSpan) * geluSteps
		switch {
		case !(u >= 0): // below the span, or NaN
			if v != v {
				continue
			}
			x[i] = 0
		case u >= hi:
			// x itself
		default:
			k := int(u)
			f := u - float32(k)
			x[i] = t[k] + f*(t[k+1]-t[k])
		}
	}
}

const (
	geluSpan  = 8
	geluSteps = 512
)

var geluTable = sync.OnceValue(func() []float32 {
	t := make([]float32, 2*geluSpan*geluSteps+2)
	for k := range t {
		v := float64(k)/geluSteps - geluSpan
		t[k] = float32(geluExact(v))
	}
	return t
})

// geluExact is GELU in float64 with math.Erf.
func geluExact(v float64) float64 { return 0.5 * v * (1 + math.Erf(v/math.Sqrt2)) }

func addInto(dst, src []float32) {
	for i, v := range src {
		dst[i] += v
	}
}

// workers is how many goroutines a forward pass uses: GOMAXPROCS (1 in a
// browser), at most 8.
func workers() int { return min(runtime.GOMAXPROCS(0), 8) }

// parallelFor calls fn over [0, n) in contiguous chunks, one per worker,
// when n is at least minPer items per worker; otherwise fn(0, n) runs on
// the calling goroutine.
func parallelFor(n, minPer int, fn func(lo, hi int)) {
	w := min(workers(), n/max(minPer, 1))
	if w <= 1 {
		fn(0, n)
		return
	}
	var wg sync.WaitGroup
	chunk := (n + w - 1) / w
	for lo := 0; lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(lo, hi)
		}()
	}
	wg.Wait()
}
