// Package conversation is chat with a local model over assembled context:
// a question's context is assembled within the window left after the
// recent history (backend/query), the model may call the pipeline's tools
// for more, the answer streams, the turn is kept in
// conversations/<id>.json with its tool calls in audit.jsonl, and the
// answer is indexed as an output node in the background
// (backend/library). The token calibration per model lives in
// calibration.json.
//
//	cs := conversation.New(ws, pipeline, lib)
//	turn, err := cs.Chat(ctx, client, conversation.Request{Question: "…", Model: "llama3.2"})
package conversation

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/library"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/ollama/wait"
	"github.com/loomwork/loom/backend/query"
	"github.com/loomwork/loom/backend/storage"
	"github.com/loomwork/loom/backend/workspace"
)

// AnswersCollection is the collection answers are indexed into.
const AnswersCollection = "conversations"

// DefaultChatWindow caps the window a chat asks Ollama for when the person
// gives none: a model's full context length (often 128k) would make
// Ollama allocate gigabytes for the KV cache on a laptop.
const DefaultChatWindow = 8192

// Conversations keeps a workspace's conversations, audit log and
// calibration, and answers questions in them.
type Conversations struct {
	ws       *workspace.Workspace
	pipeline *query.Pipeline
	lib      *library.Library
	// mu guards the conversation files, the audit log and the
	// calibration file.
	mu sync.Mutex
}

// New returns the conversations of ws: contexts come from pipeline,
// answers are indexed through lib.
func New(ws *workspace.Workspace, pipeline *query.Pipeline, lib *library.Library) *Conversations {
	return &Conversations{ws: ws, pipeline: pipeline, lib: lib}
}

// ChatRequest is one question in a conversation.
type ChatRequest struct {
	// Conversation continues a conversation ("" starts one).
	Conversation string `json:"conversation,omitempty"`
	Question     string `json:"question"`
	Model        string `json:"model"`
	// Window is num_ctx (default: the window the server runs the model
	// with when it fixes one, else the model's context length, at most
	// DefaultChatWindow).
	Window  int    `json:"window,omitempty"`
	Purpose string `json:"purpose,omitempty"`
	Level   string `json:"level,omitempty"`
	Scope   string `json:"scope,omitempty"`
	// MaxToolRounds bounds tool use (0: the default 2; negative: no tools).
	MaxToolRounds int `json:"max_tool_rounds,omitempty"`
	// HistoryShare is the share of the window earlier turns may take
	// (default 0.25); the oldest fall out first.
	HistoryShare float64 `json:"history_share,omitempty"`
	// NoIndex keeps the answer out of the graph.
	NoIndex bool `json:"no_index,omitempty"`
	// OnToken streams the answer; OnToolCall reports each tool call.
	OnToken    func(string)        `json:"-"`
	OnToolCall func(chat.ToolCall) `json:"-"`
	// OnContext is told the manifest, the loaded node ids and their cites
	// once the context is assembled, before the model is asked.
	OnContext func(manifest string, loaded []string, cites map[string]string) `json:"-"`
	// OnWait is told while Ollama is silent (after 10 s, as stalled after
	// 30 s and every 30 s after, until the client's idle timeout): see
	// chat.Turn.OnWait. nil: the client's own notifier, if any.
	OnWait func(wait.Notice) `json:"-"`
}

// ChatTurn is one question and its answer, with what was sent.
type ChatTurn struct {
	ID string `json:"id"`
	// Conversation is the conversation the turn belongs to (new or given).
	Conversation string          `json:"conversation"`
	Question     string          `json:"question"`
	Answer       string          `json:"answer"`
	Model        string          `json:"model"`
	Asked        time.Time       `json:"asked"`
	Answered     time.Time       `json:"answered"`
	Manifest     string          `json:"manifest"`
	Split        assemble.Split  `json:"split"`
	Window       int             `json:"window"`
	Loaded       []string        `json:"loaded"`
	Tools        []chat.ToolCall `json:"tool_calls,omitempty"`
	// Cites are the human-readable references (model.Cite) of the nodes
	// the turn names, by id: those loaded and those its tool calls
	// returned. The page labels the answer's citations with them.
	Cites map[string]string `json:"cites,omitempty"`
	// HistoryTurns earlier turns were sent; HistoryDropped were not (the
	// manifest says so).
	HistoryTurns          int      `json:"history_turns"`
	HistoryDropped        int      `json:"history_dropped"`
	PromptEvalCount       int      `json:"prompt_eval_count"`
	EstimatedPromptTokens int      `json:"estimated_prompt_tokens"`
	Truncated             bool     `json:"truncated,omitempty"`
	Notes                 []string `json:"notes,omitempty"`
	Error                 string   `json:"error,omitempty"`
	// AnswerNodes are the output nodes the answer became.
	AnswerNodes []string `json:"answer_nodes,omitempty"`
	// Prompt is the system message as sent (for --show-prompt).
	Prompt string `json:"-"`
}

// UnmarshalJSON reads a turn, and the split of a turn stored before it
// was called so ("budget").
func (t *ChatTurn) UnmarshalJSON(b []byte) error {
	type plain ChatTurn
	var v struct {
		plain
		Budget *assemble.Split `json:"budget"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*t = ChatTurn(v.plain)
	if v.Budget != nil && t.Split == (assemble.Split{}) {
		t.Split = *v.Budget
	}
	return nil
}

// Conversation is a sequence of turns, stored in conversations/<id>.json.
type Conversation struct {
	ID      string     `json:"id"`
	Title   string     `json:"title"`
	Created time.Time  `json:"created"`
	Updated time.Time  `json:"updated"`
	Turns   []ChatTurn `json:"turns"`
}

// Chat answers a question with a local model over assembled context: the
// context is assembled for the question within the window left after the
// recent history, the model may call tools for more (bounded), the answer
// streams, the turn is saved with its conversation and its tool calls go
// to the audit log; the answer is then indexed as an output node in the
// background. On failure the partial answer is saved and returned with
// the error.
func (w *Conversations) Chat(ctx context.Context, client *chat.Client, req ChatRequest) (*ChatTurn, error) {
	if err := w.ws.Writable("chat (it keeps the conversation in the workspace)"); err != nil {
		return nil, err
	}
	if client == nil {
		return nil, errors.New("chat: no model server client")
	}
	q, err := query.CheckQuestion(req.Question)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Model) == "" {
		return nil, errs.E(errs.Invalid, "chat: say which model to use (`loom models` lists them)")
	}
	w.mu.Lock()
	conv, err := w.conversation(req.Conversation)
	w.mu.Unlock()
	if err != nil {
		return nil, err
	}
	info, err := client.Model(ctx, req.Model)
	if err != nil {
		return nil, err
	}
	window := req.Window
	switch {
	case window <= 0 && info.ServerWindow > 0:
		// The server runs the model with this window whatever a request
		// says (an OpenAI-compatible server): the budget must fit it.
		window = info.ServerWindow
	case window <= 0:
		window = min(max(info.ContextLength, 2048), DefaultChatWindow)
	}
	count, err := w.ws.Counter()
	if err != nil {
		return nil, err
	}
	// Recent history within its share; the oldest turns fall out first.
	share := req.HistoryShare
	if share <= 0 || share > 0.6 {
		share = 0.25
	}
	var history []api.Message
	histTokens, kept := 0, 0
	for i := len(conv.Turns) - 1; i >= 0; i-- {
		t := conv.Turns[i]
		if t.Answer == "" {
			continue
		}
		n := count(t.Question) + count(t.Answer) + 8
		if histTokens+n > int(share*float64(window)) {
			break
		}
		histTokens += n
		kept++
		history = append([]api.Message{{Role: "user", Content: t.Question}, {Role: "assistant", Content: t.Answer}}, history...)
	}
	dropped := 0
	for _, t := range conv.Turns {
		if t.Answer != "" {
			dropped++
		}
	}
	dropped -= kept

	// The budget is planned in tiktoken counts; the model's own tokenizer
	// may count more (or fewer): what Ollama reported on earlier turns
	// scales the window the assembly plans with.
	planned := window - histTokens
	if c := client.Calibration(); c != nil {
		planned = int(float64(planned) / c.Factor(req.Model))
	}
	res, err := w.pipeline.Query(ctx, query.QueryRequest{Question: q, Window: planned, Purpose: req.Purpose, Level: req.Level, Scope: req.Scope})
	if err != nil {
		return nil, err
	}
	system := res.System + "\n\n" + res.Context
	if dropped > 0 {
		system += fmt.Sprintf("\n[Earlier conversation available but not loaded: %d turns]", dropped)
	}
	turn := ChatTurn{ID: fmt.Sprintf("t%d", len(conv.Turns)+1), Conversation: conv.ID, Question: q, Model: req.Model, Asked: w.ws.Now(),
		Manifest: res.Manifest, Split: res.Split, Window: window, HistoryTurns: kept, HistoryDropped: dropped, Prompt: system}
	for _, c := range res.LoadedCandidates() {
		turn.Loaded = append(turn.Loaded, c.ID)
		if c.Cite != "" {
			if turn.Cites == nil {
				turn.Cites = map[string]string{}
			}
			turn.Cites[c.ID] = c.Cite
		}
	}
	if req.OnContext != nil {
		req.OnContext(turn.Manifest, turn.Loaded, maps.Clone(turn.Cites))
	}
	var tools chat.Tools = w.pipeline
	if req.MaxToolRounds < 0 {
		tools = nil
	}
	out, chatErr := client.Chat(ctx, chat.Turn{Model: req.Model, Window: window, System: system, History: history, Question: q,
		Tools: tools, MaxToolRounds: req.MaxToolRounds, Count: count, OnToken: req.OnToken, OnToolCall: req.OnToolCall, OnWait: req.OnWait})
	turn.Answered = w.ws.Now()
	if out != nil {
		turn.Answer, turn.Tools = out.Answer, out.ToolCalls
		for _, tc := range out.ToolCalls {
			for id, c := range tc.Cites {
				if turn.Cites == nil {
					turn.Cites = map[string]string{}
				}
				turn.Cites[id] = c
			}
		}
		turn.PromptEvalCount, turn.EstimatedPromptTokens = out.PromptEvalCount, out.EstimatedPromptTokens
		turn.Truncated, turn.Notes = out.Truncated, out.Notes
	}
	if chatErr != nil {
		turn.Error = chatErr.Error()
	}
	saveErr := errors.Join(w.appendTurn(conv, turn), w.audit(conv.ID, turn), w.saveCalibration(client))
	if chatErr != nil {
		return &turn, errors.Join(chatErr, saveErr)
	}
	if !req.NoIndex && strings.TrimSpace(turn.Answer) != "" {
		w.ws.Background().Add(1)
		go func(convID string, t ChatTurn) {
			defer w.ws.Background().Done()
			ids, err := w.lib.IndexText(context.Background(), AnswersCollection, convID+"/"+t.ID+".md",
				"# "+oneLine(t.Question)+"\n\n"+t.Answer, model.KindOutput, "answer by "+t.Model+" in "+convID+"/"+t.ID)
			if err == nil {
				w.setAnswerNodes(convID, t.ID, ids)
			}
		}(conv.ID, turn)
	}
	return &turn, saveErr
}

// WaitIndexing waits for answers being indexed in the background.
func (w *Conversations) WaitIndexing() { w.ws.Background().Wait() }

func title(q string) string {
	q = oneLine(q)
	if r := []rune(q); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return q
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func (w *Conversations) conversationsDir() string { return filepath.Join(w.ws.Dir(), "conversations") }

// conversation loads a conversation, or starts one when id is "".
func (w *Conversations) conversation(id string) (*Conversation, error) {
	if id == "" {
		now := w.ws.Now()
		return &Conversation{ID: "conv-" + strings.ToLower(rand.Text()[:12]), Created: now, Updated: now}, nil
	}
	if strings.ContainsAny(id, `/\`) || strings.HasPrefix(id, ".") {
		return nil, errs.E(errs.Invalid, "bad conversation id %q", id)
	}
	b, err := os.ReadFile(filepath.Join(w.conversationsDir(), id+".json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, errs.E(errs.NotFound, "no conversation %q in this workspace (loom chat --list shows them)", id)
	}
	if err != nil {
		return nil, err
	}
	var c Conversation
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, errs.Wrap(errs.Damaged, err, "conversation %s is damaged", id)
	}
	return &c, nil
}

// Conversation returns a stored conversation.
func (w *Conversations) Conversation(id string) (*Conversation, error) {
	if id == "" {
		return nil, errs.E(errs.Invalid, "which conversation?")
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.conversation(id)
}

// ConversationSummary lists a conversation without its turns.
type ConversationSummary struct {
	ID      string    `json:"id"`
	Title   string    `json:"title"`
	Turns   int       `json:"turns"`
	Updated time.Time `json:"updated"`
}

// Conversations lists the stored conversations, most recent first.
func (w *Conversations) Conversations() ([]ConversationSummary, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	entries, err := os.ReadDir(w.conversationsDir())
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []ConversationSummary
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || e.IsDir() {
			continue
		}
		c, err := w.conversation(id)
		if err != nil {
			continue // a damaged file is skipped, not fatal
		}
		out = append(out, ConversationSummary{ID: c.ID, Title: c.Title, Turns: len(c.Turns), Updated: c.Updated})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Updated.After(out[j].Updated) })
	return out, nil
}

// appendTurn adds a turn to the stored conversation (re-read under the
// lock, so a background update of an earlier turn is not lost).
func (w *Conversations) appendTurn(c *Conversation, t ChatTurn) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if stored, err := w.conversation(c.ID); err == nil {
		c = stored
	}
	c.Turns = append(c.Turns, t)
	c.Updated = t.Answered
	if c.Title == "" {
		c.Title = title(t.Question)
	}
	return writeJSONAtomic(filepath.Join(w.conversationsDir(), c.ID+".json"), c)
}

func (w *Conversations) setAnswerNodes(convID, turnID string, ids []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	c, err := w.conversation(convID)
	if err != nil {
		return
	}
	for i := range c.Turns {
		if c.Turns[i].ID == turnID {
			c.Turns[i].AnswerNodes = ids
		}
	}
	_ = writeJSONAtomic(filepath.Join(w.conversationsDir(), c.ID+".json"), c)
}

func writeJSONAtomic(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return storage.WriteFileAtomic(path, append(b, '\n'))
}

// AuditRecord is one line of audit.jsonl: a tool call made in a turn, or
// made by another program (Source says which: "mcp" for an MCP client,
// "" for Loom's own chat).
type AuditRecord struct {
	Time         time.Time     `json:"time"`
	Conversation string        `json:"conversation"`
	Turn         string        `json:"turn"`
	Call         chat.ToolCall `json:"call"`
	// Source is who called: "" (a chat turn) or "mcp".
	Source string `json:"source,omitempty"`
	// Client names the program that called through MCP, as it introduced
	// itself ("claude-desktop 1.2"), and Session its session.
	Client  string `json:"client,omitempty"`
	Session string `json:"session,omitempty"`
}

// Record appends tool calls made outside a chat turn to audit.jsonl.
func (w *Conversations) Record(records ...AuditRecord) error {
	if len(records) == 0 {
		return nil
	}
	if err := w.ws.Writable("keep the audit log"); err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.appendAudit(records)
}

// audit appends a turn's tool calls to audit.jsonl.
func (w *Conversations) audit(convID string, t ChatTurn) error {
	if len(t.Tools) == 0 {
		return nil
	}
	records := make([]AuditRecord, len(t.Tools))
	for i, c := range t.Tools {
		records[i] = AuditRecord{Time: t.Answered, Conversation: convID, Turn: t.ID, Call: c}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.appendAudit(records)
}

// appendAudit appends records to audit.jsonl (w.mu held).
func (w *Conversations) appendAudit(records []AuditRecord) error {
	f, err := os.OpenFile(filepath.Join(w.ws.Dir(), "audit.jsonl"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	bw := bufio.NewWriter(f)
	enc := json.NewEncoder(bw)
	for _, r := range records {
		if err := enc.Encode(r); err != nil {
			f.Close()
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Audit reads the audit log (every tool call, oldest first).
func (w *Conversations) Audit() ([]AuditRecord, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	f, err := os.Open(filepath.Join(w.ws.Dir(), "audit.jsonl"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []AuditRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r AuditRecord
		if json.Unmarshal(sc.Bytes(), &r) == nil {
			out = append(out, r)
		}
	}
	return out, sc.Err()
}

func (w *Conversations) calibrationPath() string {
	return filepath.Join(w.ws.Dir(), "calibration.json")
}

// LoadCalibration reads the workspace's token calibration per model into c.
func (w *Conversations) LoadCalibration(c *chat.Calibration) error {
	b, err := os.ReadFile(w.calibrationPath())
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return json.Unmarshal(b, c)
}

func (w *Conversations) saveCalibration(client *chat.Client) error {
	if client.Calibration() == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return writeJSONAtomic(w.calibrationPath(), client.Calibration())
}
