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

// layer is one transformer block. Every matrix is stored transposed from
// the checkpoint's [out, in] to [in, out], row-major, so that matmul walks
// it row by row; Q, K and V are fused into one [hidden, 3·hidden] matrix.
type layer struct {
	qkvW, qkvB   []float32 // [H][3H], [3H]
	attnW, attnB []float32 // [H][H], [H]
	ln1G, ln1B   []float32
	ffn1W, ffn1B []float32 // [H][I], [I]
	ffn2W, ffn2B []float32 // [I][H], [H]
	ln2G, ln2B   []float32
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
			ly.qkvW = make([]float32, H*3*H)
			for r := 0; r < H; r++ {
				copy(ly.qkvW[r*3*H:], q[r*H:(r+1)*H])
				copy(ly.qkvW[r*3*H+H:], k[r*H:(r+1)*H])
				copy(ly.qkvW[r*3*H+2*H:], v[r*H:(r+1)*H])
			}
			ly.qkvB = append(append(append(make([]float32, 0, 3*H), qb...), kb...), vb...)
		}
		ly.attnW = transposed(p+"attention.output.dense.weight", H, H)
		ly.attnB = get(p+"attention.output.dense.bias", H)
		ly.ln1G = get(p+"attention.output.LayerNorm.weight", H)
		ly.ln1B = get(p+"attention.output.LayerNorm.bias", H)
		ly.ffn1W = transposed(p+"intermediate.dense.weight", I, H)
		ly.ffn1B = get(p+"intermediate.dense.bias", I)
		ly.ffn2W = transposed(p+"output.dense.weight", H, I)
		ly.ffn2B = get(p+"output.dense.bias", H)
		ly.ln2G = get(p+"output.LayerNorm.weight", H)
		ly.ln2B = get(p+"output.LayerNorm.bias", H)
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
	scores      []float32 // [workers][n]
}

func (m *model) scratch(n, seq int) *scratch {
	s, _ := m.pool.Get().(*scratch)
	H, I := m.cfg.Hidden, m.cfg.Intermediate
	if s == nil || len(s.h) < n*H || len(s.scores) < workers()*seq {
		s = &scratch{
			h: make([]float32, n*H), tmp: make([]float32, n*H), ctx: make([]float32, n*H),
			qkv: make([]float32, n*3*H), ffn: make([]float32, n*I),
			scores: make([]float32, workers()*seq),
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
		matmul(qkv, h, ly.qkvW, ly.qkvB, n, H, 3*H)
		m.attention(ctx, qkv, s.scores, n, seq)
		matmul(tmp, ctx, ly.attnW, ly.attnB, n, H, H)
		addInto(h, tmp)
		layerNorm(h, n, H, ly.ln1G, ly.ln1B, eps)
		matmul(ffn, h, ly.ffn1W, ly.ffn1B, n, H, I)
		parallelFor(len(ffn), 4096, func(lo, hi int) { gelu(ffn[lo:hi]) })
		matmul(tmp, ffn, ly.ffn2W, ly.ffn2B, n, I, H)
		addInto(h, tmp)
		layerNorm(h, n, H, ly.ln2G, ly.ln2B, eps)
	}
	return s, h, nil
}

// attention computes multi-head scaled dot-product self-attention within
// each sequence of seq tokens: qkv holds each token's query, key and value
// ([n][3H]); ctx receives each token's heads' weighted sums of the values
// of its own sequence ([n][H]). scores has room for seq floats per worker.
func (m *model) attention(ctx, qkv, scores []float32, n, seq int) {
	H := m.cfg.Hidden
	nh := m.cfg.Heads
	d := H / nh
	scale := float32(1 / math.Sqrt(float64(d)))
	// Work items are (query token, head) pairs, split among workers.
	var mu sync.Mutex
	next := 0
	parallelFor(n*nh, 64, func(lo, hi int) {
		mu.Lock()
		var sc []float32
		if (next+1)*seq <= len(scores) {
			sc = scores[next*seq : (next+1)*seq]
		} else { // GOMAXPROCS grew since the scratch was made
			sc = make([]float32, seq)
		}
		next++
		mu.Unlock()
		for item := lo; item < hi; item++ {
			i, hd := item/nh, item%nh
			base := i / seq * seq // the first token of i's sequence
			q := qkv[i*3*H+hd*d : i*3*H+hd*d+d]
			maxv := float32(math.Inf(-1))
			for j := 0; j < seq; j++ {
				k := qkv[(base+j)*3*H+H+hd*d : (base+j)*3*H+H+hd*d+d]
				var dot float32
				for t := range q {
					dot += q[t] * k[t]
				}
				dot *= scale
				sc[j] = dot
				if dot > maxv {
					maxv = dot
				}
			}
			var sum float32
			for j := 0; j < seq; j++ {
				e := float32(math.Exp(float64(sc[j] - maxv)))
				sc[j] = e
				sum += e
			}
			out := ctx[i*H+hd*d : i*H+hd*d+d]
			clear(out)
			inv := 1 / sum
			for j := 0; j < seq; j++ {
				p := sc[j] * inv
				v := qkv[(base+j)*3*H+2*H+hd*d : (base+j)*3*H+2*H+hd*d+d]
				for t := range out {
					out[t] += p * v[t]
				}
			}
		}
	})
}

// matmul sets out ([n][outDim]) to x ([n][in]) times w ([in][outDim]) plus
// bias, the rows split among workers when there are many. Each worker walks
// w in tiles of tileK×tileJ that stay in cache while every one of its rows
// uses them, instead of streaming all of w once per row.
func matmul(out, x, w, bias []float32, n, in, outDim int) {
	parallelFor(n, 4, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			copy(out[i*outDim:(i+1)*outDim], bias)
		}
		for j0 := 0; j0 < outDim; j0 += tileJ {
			j1 := min(j0+tileJ, outDim)
			for k0 := 0; k0 < in; k0 += tileK {
				k1 := min(k0+tileK, in)
				wt := w[k0*outDim+j0:]
				i := lo
				for ; i+2 <= hi; i += 2 {
					matvec2(out[i*outDim+j0:i*outDim+j1], out[(i+1)*outDim+j0:(i+1)*outDim+j1],
						x[i*in+k0:i*in+k1], x[(i+1)*in+k0:(i+1)*in+k1], wt, outDim)
				}
				if i < hi {
					matvec(out[i*outDim+j0:i*outDim+j1], x[i*in+k0:i*in+k1], wt, outDim)
				}
			}
		}
	})
}

// Tile sizes of matmul: a 64×256 float32 tile of w is 64 KiB.
const (
	tileK = 64
	tileJ = 256
)

// matvec adds xi times w to o, where row k of w starts at w[k*stride] and
// only its first len(o) entries are used. It sums in the same order as
// matvec2, two rows of w at a time, so that a row's result does not depend
// on how rows were split among workers or paired.
func matvec(o, xi, w []float32, stride int) {
	m := len(o)
	k := 0
	for ; k+2 <= len(xi); k += 2 {
		a0, a1 := xi[k], xi[k+1]
		w0 := w[k*stride : k*stride+m]
		w1 := w[(k+1)*stride : (k+1)*stride+m]
		w0, w1 = w0[:len(o)], w1[:len(o)]
		for j := range o {
			o[j] += a0*w0[j] + a1*w1[j]
		}
	}
	if k < len(xi) {
		a := xi[k]
		wk := w[k*stride : k*stride+m]
		wk = wk[:len(o)]
		for j := range o {
			o[j] += a * wk[j]
		}
	}
}

// matvec2 is matvec for two rows at once, o += xi·w and p += yi·w, so
// that each element of w loaded serves both.
func matvec2(o, p, xi, yi, w []float32, stride int) {
	m := len(o)
	p = p[:m]
	yi = yi[:len(xi)]
	k := 0
	for ; k+2 <= len(xi); k += 2 {
		a0, a1 := xi[k], xi[k+1]
		b0, b1 := yi[k], yi[k+1]
		w0 := w[k*stride : k*stride+m]
		w1 := w[(k+1)*stride : (k+1)*stride+m]
		w0, w1 = w0[:len(o)], w1[:len(o)]
		for j := range o {
			u, v := w0[j], w1[j]
			o[j] += a0*u + a1*v
			p[j] += b0*u + b1*v
		}
	}
	if k < len(xi) {
		matvec(o, xi[k:], w[k*stride:], stride)
		matvec(p, yi[k:], w[k*stride:], stride)
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

// gelu applies the exact (erf) GELU, 0.5·x·(1+erf(x/√2)), in place.
func gelu(x []float32) {
	for i, v := range x {
		x[i] = float32(0.5 * float64(v) * (1 + math.Erf(float64(v)/math.Sqrt2)))
	}
}

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
