// Package real tests Loom's Ollama client (backend/ollama) and its chat
// turns (backend/chat) against a real Ollama server, not a fake: the
// ollama binary that scripts/ollama.sh builds from source into
// .cache/ollama/bin, serving on a loopback port from a temporary model
// directory, with the tiny random-weight model that tools/tinyollama
// writes (.cache/ollama/tiny.gguf) loaded by `ollama create`. Nothing is
// downloaded.
//
// The fakes in backend/ollama/ollamatest still cover the failures a real
// server does not produce on demand (cut streams, malformed replies, HTTP
// errors, silence); these tests cover what only a real server proves:
// its model list and capabilities, its context length, real embeddings,
// real streaming with Ollama's own token counts, cancellation and the
// truncation of a prompt longer than num_ctx — and, since Ollama serves
// OpenAI's /v1 routes too, Loom's OpenAI-compatible adapter
// (backend/openai) on a real implementation of that protocol.
//
// Without the binary or the model the tests skip, saying to run
// scripts/setup.sh; under CI (CI=true) they fail instead.
package real
