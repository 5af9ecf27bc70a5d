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
	"github.com/loomwork/loom/backend/ollama"
	"github.com/loomwork/loom/backend/ollama/wait"
)

// stdin is where interactive chat reads questions (a variable for tests).
var stdin io.Reader = os.Stdin

func cmdChat(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("chat", stderr)
	var ws workspaceFlags
	ws.register(fs)
	modelName := fs.String("model", envOr("LOOM_CHAT_MODEL", "llama3.2"), "Ollama chat model")
	window := fs.Int("window", 0, fmt.Sprintf("num_ctx: the window to ask Ollama for, %d to %d tokens (default: the model's context length, at most %d)", minWindow, maxTokens, backend.DefaultChatWindow))
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
	oc, err := ollama.New(ollamaAddress(ws.ollamaURL), ollama.WithWait(waitOptions), ollama.WithNotify(notify))
	if err != nil {
		return usageErr("chat: %v", err)
	}
	client := chat.New(oc, chat.WithCalibration(calib))
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

func cmdModels(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("models", stderr)
	var url string
	ollamaURLFlag(fs, &url)
	format := fs.String("format", "text", "text or json")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	client, err := ollama.New(ollamaAddress(url), ollama.WithWait(waitOptions), ollama.WithNotify(noticesTo(stderr)))
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
