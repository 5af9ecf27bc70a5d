package minilm

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"sort"
)

// tensorInfo is one entry of a safetensors header: its element type, its
// shape and where its bytes lie, relative to the end of the header.
type tensorInfo struct {
	DType   string   `json:"dtype"`
	Shape   []int    `json:"shape"`
	Offsets [2]int64 `json:"data_offsets"`
}

// safetensors is a parsed safetensors file held in memory: the header's
// tensors by name and the data section they point into.
type safetensors struct {
	tensors map[string]tensorInfo
	data    []byte
}

// maxHeader bounds the JSON header a file may declare (the format's own
// limit is 100 MB); a larger length means the file is not safetensors.
const maxHeader = 100 << 20

// parseSafetensors reads the safetensors layout from b: an 8-byte
// little-endian header length, a JSON header mapping tensor names to dtype,
// shape and data_offsets, then the data. It checks that every tensor's
// bytes lie inside the data and match its shape and dtype.
func parseSafetensors(b []byte) (*safetensors, error) {
	if len(b) < 8 {
		return nil, fmt.Errorf("safetensors: file is %d bytes, too short for a header", len(b))
	}
	n := binary.LittleEndian.Uint64(b[:8])
	if n > maxHeader || n > uint64(len(b)-8) {
		return nil, fmt.Errorf("safetensors: header length %d does not fit a %d-byte file", n, len(b))
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b[8:8+n], &raw); err != nil {
		return nil, fmt.Errorf("safetensors: header: %w", err)
	}
	st := &safetensors{tensors: make(map[string]tensorInfo, len(raw)), data: b[8+n:]}
	for name, msg := range raw {
		if name == "__metadata__" {
			continue
		}
		var ti tensorInfo
		if err := json.Unmarshal(msg, &ti); err != nil {
			return nil, fmt.Errorf("safetensors: tensor %s: %w", name, err)
		}
		size, ok := dtypeSize(ti.DType)
		if !ok {
			// Unknown types (e.g. I64 position_ids) are kept but cannot be
			// decoded; only their bounds are checked.
			size = 0
		}
		start, end := ti.Offsets[0], ti.Offsets[1]
		if start < 0 || end < start || end > int64(len(st.data)) {
			return nil, fmt.Errorf("safetensors: tensor %s: data_offsets [%d, %d] outside the %d data bytes", name, start, end, len(st.data))
		}
		if size > 0 {
			want := int64(size)
			for _, d := range ti.Shape {
				want *= int64(d)
			}
			if end-start != want {
				return nil, fmt.Errorf("safetensors: tensor %s: %s%v needs %d bytes, has %d", name, ti.DType, ti.Shape, want, end-start)
			}
		}
		st.tensors[name] = ti
	}
	return st, nil
}

// dtypeSize is the byte size of the element types this package decodes.
func dtypeSize(dtype string) (int, bool) {
	switch dtype {
	case "F16", "BF16":
		return 2, true
	case "F32":
		return 4, true
	}
	return 0, false
}

// names lists the tensors' names, sorted.
func (st *safetensors) names() []string {
	out := make([]string, 0, len(st.tensors))
	for n := range st.tensors {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// float32s decodes the tensor called name to float32, checking that its
// shape is shape.
func (st *safetensors) float32s(name string, shape ...int) ([]float32, error) {
	ti, ok := st.tensors[name]
	if !ok {
		return nil, fmt.Errorf("safetensors: no tensor %s", name)
	}
	if !sameShape(ti.Shape, shape) {
		return nil, fmt.Errorf("safetensors: tensor %s has shape %v, want %v", name, ti.Shape, shape)
	}
	b := st.data[ti.Offsets[0]:ti.Offsets[1]]
	switch ti.DType {
	case "F32":
		out := make([]float32, len(b)/4)
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
		return out, nil
	case "F16":
		out := make([]float32, len(b)/2)
		for i := range out {
			out[i] = f16ToF32(binary.LittleEndian.Uint16(b[2*i:]))
		}
		return out, nil
	case "BF16":
		out := make([]float32, len(b)/2)
		for i := range out {
			out[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(b[2*i:])) << 16)
		}
		return out, nil
	}
	return nil, fmt.Errorf("safetensors: tensor %s has dtype %s, which this package does not decode", name, ti.DType)
}

// halfs returns the raw bits of the F16 tensor called name, checking that
// its shape is shape; the slice is a copy, not a view of the file.
func (st *safetensors) halfs(name string, shape ...int) ([]uint16, error) {
	ti, ok := st.tensors[name]
	if !ok {
		return nil, fmt.Errorf("safetensors: no tensor %s", name)
	}
	if ti.DType != "F16" || !sameShape(ti.Shape, shape) {
		return nil, fmt.Errorf("safetensors: tensor %s is %s%v, want F16%v", name, ti.DType, ti.Shape, shape)
	}
	b := st.data[ti.Offsets[0]:ti.Offsets[1]]
	out := make([]uint16, len(b)/2)
	for i := range out {
		out[i] = binary.LittleEndian.Uint16(b[2*i:])
	}
	return out, nil
}

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// f16ToF32 converts an IEEE 754 half-precision value to float32 exactly,
// including subnormals, infinities and NaNs.
func f16ToF32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h) & 0x3ff
	switch {
	case exp == 0 && mant == 0:
		return math.Float32frombits(sign)
	case exp == 0:
		// Subnormal: value = mant · 2^-24.
		f := float32(mant) * (1.0 / (1 << 24))
		if sign != 0 {
			f = -f
		}
		return f
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}
