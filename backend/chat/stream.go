package chat

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/ollama/ollama/api"
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

var errIdle = errors.New("no chunk within the idle timeout")

// stream sends one chat request and reads its NDJSON reply, passing
// content and thinking on as they arrive. The reply holds whatever arrived
// even when err is not nil.
func (c *Client) stream(ctx context.Context, req *api.ChatRequest, onContent, onThinking func(string)) (reply, error) {
	var rep reply
	var content, thinking strings.Builder
	watch := &streamWatch{}
	reqCtx, cancel := context.WithCancelCause(withWatch(ctx, watch))
	defer cancel(nil)
	idle := time.AfterFunc(c.idle, func() { cancel(errIdle) })
	defer idle.Stop()

	err := c.api.Chat(reqCtx, req, func(resp api.ChatResponse) error {
		idle.Reset(c.idle)
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
	rep.content, rep.thinking = content.String(), thinking.String()
	switch {
	case ctx.Err() != nil:
		return rep, ctx.Err()
	case errors.Is(context.Cause(reqCtx), errIdle):
		return rep, c.timedOut(req.Model, nil, c.idle)
	case err == nil && rep.done:
		return rep, nil
	}
	return rep, c.classifyStream(req.Model, err, watch, rep.chunks)
}
