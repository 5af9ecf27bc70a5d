// Package ollama is Loom's adapter to a local Ollama (https://ollama.com),
// on Ollama's own Go client (github.com/ollama/ollama/api); backend/openai
// is the other, for OpenAI-compatible servers. It implements what the
// domain packages ask of a model server (modelserver.Server):
//
//   - chat streaming, with tools and num_ctx as the turn sets them
//     (Client.Stream and Client.Describe: chat.Server);
//   - model information and listing: context length, tool support,
//     embedding models (Client.Model, Client.Models);
//   - embeddings (Client.EmbedModel: an embed.Remote, whose Open gives an
//     embed.Embedder);
//   - summaries, with the extractive method as the usual fallback
//     (Summarizer: an abstract.Summarizer).
//
// Dependencies point from here to the domain (chat, embed, abstract), never
// back; the edges (cmd/loom, bind) make a Client and hand it to the domain:
//
//	oc, err := ollama.New(ollama.Address(flag, os.Getenv("LOOM_OLLAMA_URL"), os.Getenv("OLLAMA_HOST")),
//		ollama.WithNotify(show))
//	turns := chat.New(oc)
//
// The package reads no environment: ParseURL is the one place an Ollama
// address is read, and Address applies the precedence of what the edge
// read (see Address).
//
// Every failure is an *Error carrying the address, the model and a
// sentence a person can act on ("start it with `ollama serve`", "run
// `ollama pull llama3.2`"), with a code from backend/errs that
// errs.CodeOf finds. No wait is silent and none is endless: every request
// runs under a watch (package wait) that tells the notifier after 10 s of
// silence, says "stalled" at 30 s and every 30 s after, and gives the
// request up at its limit — a chat after DefaultIdleTimeout without a
// streamed chunk, a model list or description after DefaultTimeout, an
// embedding or a summary after DefaultModelTimeout.
//
// Tests talk to ollamatest, the one fake Ollama, which speaks the same wire
// protocol.
package ollama
