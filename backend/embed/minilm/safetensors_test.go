package minilm

import (
	"encoding/binary"
	"math"
	"testing"
)

func TestF16ToF32(t *testing.T) {
	for _, c := range []struct {
		h    uint16
		want float32
	}{
		{0x0000, 0}, {0x3c00, 1}, {0xc000, -2}, {0x3555, 0.333251953125},
		{0x7bff, 65504}, {0x0001, 5.9604645e-8}, {0x03ff, 6.097555e-5}, {0x8001, -5.9604645e-8},
		{0x7c00, float32(math.Inf(1))}, {0xfc00, float32(math.Inf(-1))},
	} {
		if got := f16ToF32(c.h); got != c.want {
			t.Errorf("f16ToF32(%#04x) = %g, want %g", c.h, got, c.want)
		}
	}
	if got := f16ToF32(0x7e00); !math.IsNaN(float64(got)) {
		t.Errorf("f16ToF32(NaN) = %g", got)
	}
	if got := f16ToF32(0x8000); got != 0 || !math.Signbit(float64(got)) {
		t.Errorf("f16ToF32(-0) = %g", got)
	}
}

func TestSafetensorsDecode(t *testing.T) {
	ts := map[string]tensor{"a": {shape: []int{2, 3}, v: []float64{1, -2, 0.5, 3, 0.25, -0.125}}}
	for _, dtype := range []string{"F32", "F16"} {
		st, err := parseSafetensors(encodeSafetensors(ts, dtype))
		if err != nil {
			t.Fatal(err)
		}
		got, err := st.float32s("a", 2, 3)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range ts["a"].v {
			if float64(got[i]) != v {
				t.Errorf("%s: a[%d] = %g, want %g", dtype, i, got[i], v)
			}
		}
		if _, err := st.float32s("a", 3, 2); err == nil {
			t.Errorf("%s: wrong shape accepted", dtype)
		}
		if _, err := st.float32s("b", 1); err == nil {
			t.Errorf("%s: missing tensor accepted", dtype)
		}
		if names := st.names(); len(names) != 1 || names[0] != "a" {
			t.Errorf("names = %v", names)
		}
	}
}

func TestSafetensorsErrors(t *testing.T) {
	good := encodeSafetensors(map[string]tensor{"a": {shape: []int{2}, v: []float64{1, 2}}}, "F32")
	hdr := func(js string, data int) []byte {
		b := binary.LittleEndian.AppendUint64(nil, uint64(len(js)))
		return append(append(b, js...), make([]byte, data)...)
	}
	for name, b := range map[string][]byte{
		"short":         {1, 2, 3},
		"huge header":   binary.LittleEndian.AppendUint64(nil, 1<<40),
		"truncated":     good[:len(good)-1],
		"bad json":      hdr("{", 0),
		"out of bounds": hdr(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`, 4),
		"size mismatch": hdr(`{"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}}`, 8),
	} {
		if _, err := parseSafetensors(b); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	// An I64 tensor (BERT's position_ids) is accepted but not decoded.
	st, err := parseSafetensors(hdr(`{"p":{"dtype":"I64","shape":[1],"data_offsets":[0,8]}}`, 8))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.float32s("p", 1); err == nil {
		t.Error("I64 decoded as float")
	}
}
