//go:build !js

package embed

// fullEncoderHere says whether auto mode may give a new workspace the full
// MiniLM encoder: not in the web edition, which has no weights on disk and
// one thread.
const fullEncoderHere = true
