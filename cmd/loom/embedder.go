package main

import (
	"fmt"
	"io"
	"sync"

	"github.com/loomwork/loom/backend/ollama"
	"github.com/loomwork/loom/backend/ollama/wait"
)

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
