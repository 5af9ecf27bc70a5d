package chat

import (
	"context"
	"strings"

	"github.com/ollama/ollama/api"

	"github.com/loomwork/loom/backend/ollama/wait"
)

// reply is what one streamed chat request produced.
type reply struct {
	content, thinking string
	toolCalls         []api.ToolCall
	doneReason        string
	metrics           api.Metrics
}

// stream sends one chat request through the server and gathers its reply,
// passing content and thinking on as they arrive. The reply holds whatever
// arrived even when err is not nil.
func (c *Client) stream(ctx context.Context, req *api.ChatRequest, onContent, onThinking func(string), notify func(wait.Notice)) (reply, error) {
	var rep reply
	var content, thinking strings.Builder
	err := c.server.Stream(ctx, req, notify, func(resp api.ChatResponse) {
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
			rep.doneReason, rep.metrics = resp.DoneReason, resp.Metrics
		}
	})
	rep.content, rep.thinking = content.String(), thinking.String()
	return rep, err
}
