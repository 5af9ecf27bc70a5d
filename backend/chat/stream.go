package chat

import (
	"context"
	"strings"
	"sync"

	"github.com/ollama/ollama/api"

	"github.com/loomwork/loom/backend/ollama/wait"
)

// reply is what one streamed /api/chat request produced.
type reply struct {
	content, thinking string
	toolCalls         []api.ToolCall
	done              bool
	doneReason        string
	metrics           api.Metrics
	chunks            int
}

// stream sends one chat request and reads its NDJSON reply, passing
// content and thinking on as they arrive. A watch tells notify while
// Ollama is silent and gives up after c.idle without a chunk; notify is
// never called at the same time as onContent or onThinking. The reply
// holds whatever arrived even when err is not nil.
func (c *Client) stream(ctx context.Context, req *api.ChatRequest, onContent, onThinking func(string), notify func(wait.Notice)) (reply, error) {
	var rep reply
	var content, thinking strings.Builder
	seen := &streamWatch{}
	// One lock around the callbacks, so a caller writing notices and
	// tokens to one place needs no lock of its own.
	var mu sync.Mutex
	serialised := func(n wait.Notice) {
		if notify != nil {
			mu.Lock()
			defer mu.Unlock()
			notify(n)
		}
	}
	what := "answer with model " + req.Model
	reqCtx, watch := wait.Start(withWatch(ctx, seen), c.wait,
		wait.Request{URL: c.base.String(), Model: req.Model, Task: what, Limit: c.idle, Notify: serialised})
	defer watch.Stop()

	err := c.api.Chat(reqCtx, req, func(resp api.ChatResponse) error {
		watch.Touch()
		mu.Lock()
		defer mu.Unlock()
		rep.chunks++
		if rep.done {
			return nil // nothing comes after the final chunk
		}
		if s := resp.Message.Thinking; s != "" {
			thinking.WriteString(s)
			onThinking(s)
		}
		if s := resp.Message.Content; s != "" {
			content.WriteString(s)
			onContent(s)
		}
		rep.toolCalls = append(rep.toolCalls, resp.Message.ToolCalls...)
		if resp.Done {
			rep.done, rep.doneReason, rep.metrics = true, resp.DoneReason, resp.Metrics
		}
		return nil
	})
	watch.Stop()
	rep.content, rep.thinking = content.String(), thinking.String()
	switch {
	case ctx.Err() != nil:
		return rep, ctx.Err()
	case watch.GaveUp():
		return rep, c.gaveUp(what, req.Model, c.idle, rep.chunks)
	case err == nil && rep.done:
		return rep, nil
	}
	return rep, c.classifyStream(req.Model, err, seen, rep.chunks)
}
