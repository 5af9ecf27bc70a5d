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
	"github.com/loomwork/loom/backend/modelserver"
	"github.com/loomwork/loom/backend/ollama"
	"github.com/loomwork/loom/backend/ollama/wait"
)

// stdin is where interactive chat reads questions (a variable for tests).
var stdin io.Reader = os.Stdin

func cmdChat(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("chat", stderr)
	var ws workspaceFlags
	ws.register(fs)
	modelName := fs.String("model", os.Getenv("LOOM_CHAT_MODEL"), "chat model (default $LOOM_CHAT_MODEL, else llama3.2 with Ollama, the first chat model an OpenAI-compatible server lists)")
	window := fs.Int("window", 0, fmt.Sprintf("the window to assume, %d to %d tokens, sent to Ollama as num_ctx (default: the window an OpenAI-compatible server runs the model with, else the model's context length, at most %d)", minWindow, maxTokens, backend.DefaultChatWindow))
	message := fs.String("m", "", fmt.Sprintf("ask this one question and exit (otherwise: one question per line from stdin, each at most %d KB). "+
		"While Ollama is silent, notices go to stderr: after 10 s, as stalled after 30 s and every 30 s after; a reply that sends nothing for %s is given up",
		backend.MaxQuestionBytes>>10, wait.Human(ollama.DefaultIdleTimeout)))
	convID := fs.String("conversation", "", "continue this conversation")
	list := fs.Bool("list", false, "list conversations and exit")
	show := fs.Bool("show-prompt", false, "print the system message sent with each question")
	noTools := fs.Bool("no-tools", false, "do not offer the model tools")
	purpose := fs.String("purpose", "answer", "weight preset: answer, verify, explore, decide or create")
	level := fs.String("level", "adaptive", "abstraction level: detailed, summary, essence or adaptive")
	scope := fs.String("scope", "", "only this collection, or cluster:ID for only this cluster (loom graph clusters lists them)")
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
	if given(fs, "window") {
		if err := checkTokens("window", *window, minWindow, windowWhy+" (leave --window out for the model's own, at most "+fmt.Sprint(backend.DefaultChatWindow)+")"); err != nil {
			return err
		}
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
	notify := noticesTo(stderr)
	srv, err := ws.server.client(stderr)
	if err != nil {
		return err
	}
	if *modelName == "" {
		if *modelName, err = defaultChatModel(ctx, srv); err != nil {
			return err
		}
	}
	client := chat.New(srv, chat.WithCalibration(calib))
	rounds := 0
	if *noTools {
		rounds = -1
	}
	ask := func(q string) error {
		req := backend.ChatRequest{Conversation: *convID, Question: q, Model: *modelName, Window: *window, Purpose: *purpose,
			Level: *level, Scope: *scope, MaxToolRounds: rounds, OnWait: notify}
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
			fmt.Fprintf(stderr, "--- system message (%d tokens of context in a %d-token window) ---\n%s\n--- end ---\n", turn.Split.Context-turn.Split.Free, turn.Window, turn.Prompt)
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
	in := bufio.NewReader(stdin)
	for {
		fmt.Fprint(stderr, "> ")
		line, size, err := readLine(in, backend.MaxQuestionBytes)
		if err != nil && (err != io.EOF || size == 0) {
			fmt.Fprintln(stderr)
			if err == io.EOF {
				return nil
			}
			return err
		}
		if size > backend.MaxQuestionBytes {
			// The engine would refuse it too; saying so here keeps the
			// session going without holding all of it in memory.
			fmt.Fprintf(stderr, "loom: the question is %d KB, longer than the %d KB a question may be: put long material in a file and ingest it (loom ingest FILE), then ask about it\n",
				(size+1023)>>10, backend.MaxQuestionBytes>>10)
			continue
		}
		q := strings.TrimSpace(line)
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

// readLine reads one line of any length, keeping at most limit bytes of it
// (the rest is read and dropped) and returning its full size without the
// line end. At the end of input it returns io.EOF, with the last line if
// it had no line end.
func readLine(r *bufio.Reader, limit int) (line string, size int, err error) {
	var b strings.Builder
	for {
		chunk, err := r.ReadSlice('\n')
		size += len(chunk)
		if keep := min(len(chunk), limit+1-b.Len()); keep > 0 {
			b.Write(chunk[:keep])
		}
		switch err {
		case bufio.ErrBufferFull:
			continue
		case nil:
			size-- // the \n
			return strings.TrimSuffix(strings.TrimSuffix(b.String(), "\n"), "\r"), size, nil
		default:
			return b.String(), size, err
		}
	}
}

// defaultChatModel is the chat model when none is given: llama3.2 with
// Ollama, the first model an OpenAI-compatible server lists that is not
// only an embedding model (such a server usually serves the one the person
// loaded).
func defaultChatModel(ctx context.Context, srv modelserver.Server) (string, error) {
	if srv.Provider() == modelserver.Ollama {
		return "llama3.2", nil
	}
	models, err := srv.Models(ctx)
	if err != nil {
		return "", err
	}
	for _, m := range models {
		if m.Completion || !m.Knows("completion") {
			return m.Name, nil
		}
	}
	return "", fmt.Errorf("%s at %s lists no chat model: load one there, or name one with --model", srv.Name(), srv.URL())
}

func cmdModels(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("models", stderr)
	var server serverFlags
	server.register(fs)
	format := fs.String("format", "text", "text or json")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	srv, err := server.client(stderr)
	if err != nil {
		return err
	}
	models, err := srv.Models(ctx)
	if err != nil {
		return err
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(models)
	}
	fmt.Fprintf(stdout, "%s at %s\n", srv.Name(), srv.URL())
	if len(models) == 0 {
		if srv.Provider() == modelserver.Ollama {
			fmt.Fprintln(stdout, "no models installed: try `ollama pull llama3.2` and `ollama pull nomic-embed-text`")
		} else {
			fmt.Fprintln(stdout, "no models listed: load a chat model and an embedding model in the server")
		}
	}
	unknown := false
	for _, m := range models {
		fmt.Fprintf(stdout, "%-40s %s  %s\n", m.Name, windowText(m), capabilities(m))
		unknown = unknown || len(m.Unknown) > 0
	}
	if unknown {
		fmt.Fprintln(stdout, "(?: the server does not say; a chat offers tools to such a model and goes on without them if the server refuses; give --context-length for the window)")
	}
	return nil
}

// windowText is a model's windows: the one it was trained for, and the
// one the server runs it with when that is fixed.
func windowText(m chat.ModelInfo) string {
	switch {
	case m.ServerWindow > 0 && m.ServerWindow != m.ContextLength && m.ContextLength > 0:
		return fmt.Sprintf("%8d tokens (runs with %d)", m.ContextLength, m.ServerWindow)
	case m.ServerWindow > 0:
		return fmt.Sprintf("%8d tokens (runs with it)", m.ServerWindow)
	case !m.Knows("context_length"):
		return fmt.Sprintf("%8s tokens", "?")
	}
	return fmt.Sprintf("%8d tokens", m.ContextLength)
}

// capabilities lists what a model can do, "name?" for what the server
// does not say.
func capabilities(m chat.ModelInfo) string {
	var caps []string
	for _, c := range []struct {
		on   bool
		key  string
		name string
	}{{m.Completion, "completion", "chat"}, {m.Tools, "tools", "tools"}, {m.Embedding, "embedding", "embeddings"}, {m.Thinking, "thinking", "thinking"}, {m.Vision, "vision", "vision"}} {
		switch {
		case !m.Knows(c.key):
			caps = append(caps, c.name+"?")
		case c.on:
			caps = append(caps, c.name)
		}
	}
	if m.Error != "" {
		caps = append(caps, "(error: "+m.Error+")")
	}
	return strings.Join(caps, ", ")
}

func envOr(k, d string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return d
}
