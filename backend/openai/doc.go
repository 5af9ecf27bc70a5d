// Package openai is Loom's adapter to a local server that speaks OpenAI's
// /v1 protocol — LM Studio, llama.cpp's llama-server, vLLM (and Ollama's
// own /v1 routes) — written on net/http: the protocol is three routes and
// a stream of server-sent events, and an SDK for the whole OpenAI API
// would not know what these servers add. It implements what the domain
// asks of a model server (modelserver.Server), as backend/ollama does for
// Ollama:
//
//   - chat streaming with tool calls (Client.Stream and Client.Describe:
//     chat.Server): the turn's messages and tools go out as
//     /v1/chat/completions with "stream": true; the reply's SSE chunks
//     ("data: {…}", ending with "data: [DONE]") come back as
//     api.ChatResponse chunks, tool calls put together from the deltas
//     they arrive in, finish_reason as done_reason and usage as the token
//     counts;
//   - the model list (/v1/models) with what each model can do, from what
//     the server adds: LM Studio's /api/v1/models (or /api/v0/models) for
//     its type, tool training, vision and context lengths, llama.cpp's
//     /props for the window it runs with (n_ctx) and its template's tool
//     support, vLLM's max_model_len; what no route says is listed in
//     chat.ModelInfo.Unknown, and the configured context length stands in
//     for a window nothing reports (WithContextLength);
//   - embeddings (/v1/embeddings): Client.EmbedModel is an embed.Remote.
//
// Each request goes to the configured address only, with the API key (if
// any) as a bearer token; the key is never put in a message or a log. No
// wait is silent and none is endless: every request runs under a watch
// (package wait), as the Ollama adapter's do. Every failure is an *Error
// with one of the model server's codes (backend/errs) and a sentence that
// names the server and says what to do: start it, load the model, set the
// key, or let the turn go on without tools (errs.ModelNoTools).
//
// Tests talk to openaitest, a fake server that speaks the wire protocol as
// LM Studio, llama.cpp's server and vLLM do, and to a real Ollama's /v1
// routes (backend/ollama/real).
package openai
