package main

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/ollama"
	"github.com/loomwork/loom/backend/ollama/wait"
)

// selectEmbedder picks the embedder for --embedder mode (auto: Ollama when
// it answers and has the model, the offline one otherwise) and says why.
// While Ollama keeps it waiting, it says so on stderr.
func selectEmbedder(ctx context.Context, mode, url, model string, stderr io.Writer) (embed.Embedder, string, error) {
	m, err := embed.ParseMode(mode)
	if err != nil {
		return nil, "", usageErr("--embedder: %v", err)
	}
	remote := func() (embed.Remote, error) {
		oc, err := ollama.New(ollamaAddress(url), ollama.WithWait(waitOptions), ollama.WithNotify(noticesTo(stderr)))
		if err != nil {
			return nil, err
		}
		return oc.EmbedModel(model), nil
	}
	e, choice, err := embed.Select(ctx, embed.SelectOptions{Mode: m, Ollama: remote})
	if err != nil {
		return nil, "", err
	}
	return e, choice.Reason, nil
}

// waitOptions are when a request to Ollama speaks up while it waits; the
// zero value means the engine's defaults (10 s, stalled at 30 s) on the
// system clock. Tests set a waittest.Clock.
var waitOptions wait.Options

// ollamaTimeouts says, for the help text, when each kind of request to
// Ollama gives up.
var ollamaTimeouts = fmt.Sprintf("%s without a streamed chunk (chat), %s (embeddings, summaries) or %s (model lists and details)",
	wait.Human(ollama.DefaultIdleTimeout), wait.Human(ollama.DefaultModelTimeout), wait.Human(ollama.DefaultTimeout))

// noticesTo prints each notice as a line on w, one at a time (they come
// from the watching goroutines). A notice in the middle of a streamed
// answer starts on a line of its own.
func noticesTo(w io.Writer) func(wait.Notice) {
	var mu sync.Mutex
	return func(n wait.Notice) {
		mu.Lock()
		defer mu.Unlock()
		if n.Midstream {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, "loom:", n.Message)
	}
}
