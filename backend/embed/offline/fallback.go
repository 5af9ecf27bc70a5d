package offline

import "unicode"

// fallbackVector writes a deterministic unit vector for a text with no known
// word: the text's lower-cased character trigrams, with a boundary mark added
// at each end, each hashed (FNV-1a over the three code points) to one
// dimension and a sign. Texts that share most trigrams ("xyzzy-42",
// "xyzzy-43") get similar vectors, and every text, even the empty one, gets
// a non-zero vector.
func fallbackVector(text string, out []float32) {
	clear(out)
	runes := make([]rune, 0, len(text)+2)
	runes = append(runes, '\x02')
	for _, r := range text {
		runes = append(runes, unicode.ToLower(r))
	}
	runes = append(runes, '\x03')
	span := min(3, len(runes))
	for i := 0; i+span <= len(runes); i++ {
		h := uint32(2166136261)
		for _, r := range runes[i : i+span] {
			for shift := 0; shift < 32; shift += 8 {
				h ^= uint32(r>>shift) & 0xff
				h *= 16777619
			}
		}
		d := (h & 0x7fffffff) % uint32(len(out))
		if h&(1<<31) != 0 {
			out[d]--
		} else {
			out[d]++
		}
	}
	var ss float64
	for _, x := range out {
		ss += float64(x) * float64(x)
	}
	if ss == 0 { // the signs cancelled out exactly: still answer something fixed
		out[0] = 1
		return
	}
	scaleTo(out, ss)
}
