package chat_test

import (
	"context"
	"fmt"
	"os"

	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/ollama"
	"github.com/loomwork/loom/backend/ollama/wait"
)

// notesTools is a toy Tools: a real one searches the workspace graph.
type notesTools struct{}

func (notesTools) SearchContext(_ context.Context, query, scope string, limit int) (chat.ToolResult, error) {
	return chat.ToolResult{Text: "[n7] Access tokens expire after one hour.", NodeIDs: []string{"n7"}}, nil
}

func (notesTools) Expand(_ context.Context, nodeID, level string) (chat.ToolResult, error) {
	return chat.ToolResult{}, fmt.Errorf("no node %s", nodeID)
}

func (notesTools) GetWindow(_ context.Context, nodeID string, center, radius int) (chat.ToolResult, error) {
	return chat.ToolResult{}, fmt.Errorf("no node %s", nodeID)
}

func (notesTools) Catalog(context.Context) (chat.ToolResult, error) {
	return chat.ToolResult{Text: "[Catalog: 1 document, 3 sections]"}, nil
}

// A turn with a local Ollama: check the model, ask, stream the answer,
// and keep what arrived if something fails.
func Example_turn() {
	ctx := context.Background()
	oc, err := ollama.New(ollama.DefaultURL) // the model runs behind Ollama
	if err != nil {
		panic(err)
	}
	c := chat.New(oc)
	info, err := c.Model(ctx, "llama3.2")
	if err != nil {
		fmt.Fprintln(os.Stderr, err) // e.g. "… run `ollama pull llama3.2`"
		return
	}
	window := min(info.ContextLength, 8192)
	res, err := c.Chat(ctx, chat.Turn{
		Model:    "llama3.2",
		Window:   window,
		System:   "Answer from the context and cite node ids.\n\n[Context loaded: 1 of 3 relevant nodes]\n[n2] Refresh tokens last 30 days.",
		Question: "When do access tokens expire?",
		Tools:    notesTools{},
		OnToken:  func(s string) { fmt.Print(s) },
		// "Ollama at … has sent nothing for 30 s since it was asked to …"
		OnWait: func(n wait.Notice) { fmt.Fprintln(os.Stderr, n.Message) },
	})
	if err != nil {
		// e.g. "… stalled in the middle of its reply …" (ollama_timeout)
		fmt.Fprintf(os.Stderr, "\n%v (%s); kept %d characters and %d tool calls\n", err, errs.CodeOf(err), len(res.Answer), len(res.ToolCalls))
		return
	}
	for _, call := range res.ToolCalls {
		fmt.Fprintf(os.Stderr, "tool %s %v → %v (%d tokens)\n", call.Name, call.Args, call.NodeIDs, call.Tokens)
	}
	// json.Marshal(c.Calibration()) persists what the replies taught it.
}
