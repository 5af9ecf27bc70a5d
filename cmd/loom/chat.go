package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/chat"
)

// stdin is where interactive chat reads questions (a variable for tests).
var stdin io.Reader = os.Stdin

func cmdChat(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("chat", stderr)
	var ws workspaceFlags
	ws.register(fs)
	modelName := fs.String("model", envOr("LOOM_CHAT_MODEL", "llama3.2"), "Ollama chat model")
	window := fs.Int("window", 0, "num_ctx: the window to ask Ollama for (default: the model's context length, at most 8192)")
	message := fs.String("m", "", "ask this one question and exit (otherwise: one question per line from stdin)")
	convID := fs.String("conversation", "", "continue this conversation")
	list := fs.Bool("list", false, "list conversations and exit")
	show := fs.Bool("show-prompt", false, "print the system message sent with each question")
	noTools := fs.Bool("no-tools", false, "do not offer the model tools")
	purpose := fs.String("purpose", "answer", "weight preset: answer, verify, explore, decide or create")
	level := fs.String("level", "adaptive", "abstraction level: detailed, summary, essence or adaptive")
	scope := fs.String("scope", "", "only this collection")
	format := fs.String("format", "text", "text, or json (one turn object per question)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 && *message == "" {
		*message = strings.Join(pos, " ")
	}
	if *format != "text" && *format != "json" {
		return usageErr("chat: --format must be text or json")
	}
	wb, err := ws.open(ctx, stderr)
	if err != nil {
		return err
	}
	defer wb.Close()
	if *list {
		convs, err := wb.Conversations()
		if err != nil {
			return err
		}
		if len(convs) == 0 {
			fmt.Fprintln(stdout, "no conversations yet")
		}
		for _, c := range convs {
			fmt.Fprintf(stdout, "%s  %s  %d turns  %s\n", c.ID, c.Updated.Format("2006-01-02 15:04"), c.Turns, c.Title)
		}
		return nil
	}
	calib := &chat.Calibration{}
	if err := wb.LoadCalibration(calib); err != nil {
		fmt.Fprintln(stderr, "loom: token calibration unreadable, starting afresh:", err)
	}
	client, err := chat.New(ws.ollamaURL, chat.WithCalibration(calib))
	if err != nil {
		return usageErr("chat: %v", err)
	}
	rounds := 0
	if *noTools {
		rounds = -1
	}
	ask := func(q string) error {
		req := backend.ChatRequest{Conversation: *convID, Question: q, Model: *modelName, Window: *window, Purpose: *purpose,
			Level: *level, Scope: *scope, MaxToolRounds: rounds}
		if *format == "text" {
			req.OnToken = func(s string) { fmt.Fprint(stdout, s) }
			req.OnToolCall = func(c chat.ToolCall) {
				args, _ := json.Marshal(c.Args)
				status := fmt.Sprintf("%d nodes, %d tokens", len(c.NodeIDs), c.Tokens)
				if c.Error != "" {
					status = c.Error
				}
				fmt.Fprintf(stderr, "[tool %s %s → %s]\n", c.Name, args, status)
			}
		}
		turn, err := wb.Chat(ctx, client, req)
		if turn != nil && *show {
			fmt.Fprintf(stderr, "--- system message (%d tokens of context in a %d-token window) ---\n%s\n--- end ---\n", turn.Budget.Context-turn.Budget.Free, turn.Window, turn.Prompt)
		}
		if turn != nil {
			if *format == "json" {
				enc := json.NewEncoder(stdout)
				enc.SetIndent("", "  ")
				_ = enc.Encode(turn)
			} else {
				fmt.Fprintln(stdout)
				for _, n := range turn.Notes {
					fmt.Fprintln(stderr, "note:", n)
				}
				fmt.Fprintf(stderr, "[%d nodes loaded · %d tool calls · prompt %d tokens (estimated %d) · window %d]\n",
					len(turn.Loaded), len(turn.Tools), turn.PromptEvalCount, turn.EstimatedPromptTokens, turn.Window)
			}
		}
		if turn != nil {
			*convID = turn.Conversation // follow-up questions continue it
		}
		return err
	}
	if *message != "" {
		return ask(*message)
	}
	fmt.Fprintf(stderr, "Chatting with %s over %s — one question per line, Ctrl-D to end.\n", *modelName, wb.Dir())
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 1<<20), backend.MaxQuestionBytes+1)
	for {
		fmt.Fprint(stderr, "> ")
		if !sc.Scan() {
			fmt.Fprintln(stderr)
			return sc.Err()
		}
		q := strings.TrimSpace(sc.Text())
		if q == "" {
			continue
		}
		if q == "/quit" || q == "/exit" {
			return nil
		}
		if err := ask(q); err != nil {
			fmt.Fprintln(stderr, "loom:", err) // keep the session going
		}
	}
}

func cmdModels(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("models", stderr)
	url := fs.String("ollama-url", "", "Ollama URL (default $OLLAMA_HOST or http://127.0.0.1:11434)")
	format := fs.String("format", "text", "text or json")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	client, err := chat.New(*url)
	if err != nil {
		return usageErr("models: %v", err)
	}
	models, err := client.Models(ctx)
	if err != nil {
		return err
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(models)
	}
	if len(models) == 0 {
		fmt.Fprintln(stdout, "no models installed: try `ollama pull llama3.2` and `ollama pull nomic-embed-text`")
	}
	for _, m := range models {
		var caps []string
		for _, c := range []struct {
			on   bool
			name string
		}{{m.Completion, "chat"}, {m.Tools, "tools"}, {m.Embedding, "embeddings"}, {m.Thinking, "thinking"}, {m.Vision, "vision"}} {
			if c.on {
				caps = append(caps, c.name)
			}
		}
		fmt.Fprintf(stdout, "%-32s %8d tokens  %s\n", m.Name, m.ContextLength, strings.Join(caps, ", "))
	}
	return nil
}

func envOr(k, d string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return d
}
