package bind

import (
	"context"
	"errors"
	"os"
	"strings"
	"time"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/modelserver"
	"github.com/loomwork/loom/backend/ollama"
	"github.com/loomwork/loom/backend/ollama/wait"
	"github.com/loomwork/loom/backend/openai"
)

// The model server: which one (Ollama, or an OpenAI-compatible server such
// as LM Studio, llama.cpp's llama-server or vLLM), where, with which key
// and models, as the person set it in Settings (settings.json in their
// config folder), each field left empty falling back to the environment
// the CLI reads too ($LOOM_PROVIDER, $LOOM_OLLAMA_URL then $OLLAMA_HOST,
// $LOOM_OPENAI_URL, $LOOM_OPENAI_API_KEY) and then to the defaults. The
// status the chat and the settings show lists the models with what each
// can do; a workspace's embedder is the one its vectors were made with,
// and Reembed changes it.

// modelServerSettings is the model server as settings.json keeps it. The
// API key is kept there (the file is the person's, mode 0600) and never
// sent to the page nor logged.
type modelServerSettings struct {
	Provider      string `json:"provider,omitempty"`
	OllamaURL     string `json:"ollama_url,omitempty"`
	OpenAIURL     string `json:"openai_url,omitempty"`
	APIKey        string `json:"api_key,omitempty"`
	ChatModel     string `json:"chat_model,omitempty"`
	EmbedModel    string `json:"embed_model,omitempty"`
	ContextLength int    `json:"context_length,omitempty"`
}

// ModelServerSettings is the model server as the settings panel edits it.
type ModelServerSettings struct {
	// Available is false in the web edition, which talks to the Ollama
	// set in its chat panel (Unavailable says so).
	Available   bool   `json:"available"`
	Unavailable string `json:"unavailable,omitempty"`
	// Provider is "ollama" or "openai" (an OpenAI-compatible server).
	Provider string `json:"provider"`
	// OllamaURL and OpenAIURL are each provider's address ("": the
	// environment's, else the default: DefaultOllamaURL, DefaultOpenAIURL).
	OllamaURL        string `json:"ollama_url"`
	OpenAIURL        string `json:"openai_url"`
	DefaultOllamaURL string `json:"default_ollama_url"`
	DefaultOpenAIURL string `json:"default_openai_url"`
	// APIKey is a new key to keep, sent by the page only ("" keeps the
	// one kept); ForgetAPIKey drops the kept one. HasAPIKey says whether
	// one is kept (or set in $LOOM_OPENAI_API_KEY): the key itself never
	// comes back.
	APIKey       string `json:"api_key,omitempty"`
	ForgetAPIKey bool   `json:"forget_api_key,omitempty"`
	HasAPIKey    bool   `json:"has_api_key"`
	// ChatModel is the model the chat picks first; EmbedModel the
	// embedding model a new workspace (and a re-embed) uses ("": one the
	// server lists as an embedding model, nomic-embed-text first).
	ChatModel  string `json:"chat_model"`
	EmbedModel string `json:"embed_model"`
	// ContextLength is the window to assume for a model whose
	// OpenAI-compatible server does not report one (0: none).
	ContextLength int `json:"context_length"`
}

// ModelInfo is a model of the server, with what it can do.
type ModelInfo struct {
	Name string `json:"name"`
	// ContextLength is the window it was trained for; ServerWindow the
	// window an OpenAI-compatible server runs it with (0: each request
	// sets it, as with Ollama).
	ContextLength int  `json:"context_length"`
	ServerWindow  int  `json:"server_window,omitempty"`
	Tools         bool `json:"tools"`
	Embedding     bool `json:"embedding"`
	Completion    bool `json:"completion"`
	Vision        bool `json:"vision"`
	Thinking      bool `json:"thinking"`
	// Unknown lists what the server does not say ("tools", "embedding",
	// "completion", "vision", "context_length").
	Unknown []string `json:"unknown,omitempty"`
	// MaxBudget is the most context a question may ask for with this
	// model (the budget slider's end): the engine's rule, for the open
	// workspace's system prompt and output reservation.
	MaxBudget int `json:"max_budget"`
	// EmbedderID is, for a model that embeds (or may), what a workspace
	// embedded with it records as its embedder (Stats.Embedder).
	EmbedderID string `json:"embedder_id,omitempty"`
}

// MissingModel is a model the settings name that the server does not
// have, and how to get it.
type MissingModel struct {
	Name string `json:"name"`
	// Use is "chat" or "embeddings".
	Use string `json:"use"`
	Fix string `json:"fix"`
}

// OllamaStatus says whether the model server answers (Ollama, or the
// OpenAI-compatible server configured; the name is Ollama's, from when it
// was the only one), its models, and what to do when it does not.
type OllamaStatus struct {
	// Provider is "ollama" or "openai"; Server what to call it ("Ollama",
	// "LM Studio", "llama.cpp's server", "vLLM", "the OpenAI-compatible
	// server").
	Provider string      `json:"provider"`
	Server   string      `json:"server"`
	URL      string      `json:"url"`
	Up       bool        `json:"up"`
	Models   []ModelInfo `json:"models"`
	// ChatModel and EmbedModel are the settings' ("": none); Missing
	// those the server does not have, each with how to get it.
	ChatModel  string         `json:"chat_model,omitempty"`
	EmbedModel string         `json:"embed_model,omitempty"`
	Missing    []MissingModel `json:"missing,omitempty"`
	// Code says why the chat cannot run, as the engine's code: the server
	// is not running, did not answer in time or answered something else
	// (ollama_not_running, ollama_timeout, ollama_bad_stream), has no
	// models (ollama_model_missing), or its settings are not valid
	// (invalid). "" when it can.
	Code ErrorCode `json:"code,omitempty"`
	// Problem and Fix say the same for the person, and what to do.
	Problem string `json:"problem,omitempty"`
	Fix     string `json:"fix,omitempty"`
}

// The status check's patience: the page asks on start and on Retry, and a
// person waits for the answer, so the server gets a few seconds a request
// (its list, then each model's details) and a bound on the whole.
const (
	ollamaStatusRequest = 3 * time.Second
	ollamaStatusWhole   = 15 * time.Second
)

// webModelServer says why the web edition has no model-server settings.
const webModelServer = "The web edition talks to Ollama at the address set in its chat panel; an OpenAI-compatible server and a saved API key are for the desktop app."

// saved is the model server's saved settings (read once).
func (a *App) saved() modelServerSettings {
	a.settingsMu.Lock()
	defer a.settingsMu.Unlock()
	if a.savedServer == nil {
		s := modelServerSettings{}
		if !a.web {
			if ms := a.loadSettings().ModelServer; ms != nil {
				s = *ms
			}
		}
		a.savedServer = &s
	}
	return *a.savedServer
}

// serverConfig is the model server to use: the saved settings, each empty
// field the environment's.
func (a *App) serverConfig() (modelserver.Config, error) {
	s := a.saved()
	name := s.Provider
	if name == "" && !a.web {
		name = os.Getenv(modelserver.EnvProvider)
	}
	p, err := modelserver.ParseProvider(name)
	if err != nil {
		return modelserver.Config{Provider: modelserver.Ollama}, err
	}
	if a.web {
		p = modelserver.Ollama
	}
	c := modelserver.Config{Provider: p, ChatModel: s.ChatModel, EmbedModel: s.EmbedModel, ContextLength: s.ContextLength}
	if p == modelserver.OpenAI {
		c.URL, c.APIKey = firstOf(s.OpenAIURL, os.Getenv(modelserver.EnvOpenAIURL)), firstOf(s.APIKey, os.Getenv(modelserver.EnvAPIKey))
	} else {
		c.URL = ollamaAddress(firstOf(s.OllamaURL, a.ollamaURL()))
	}
	return c, nil
}

// server makes the configured model server's client.
func (a *App) server(o modelserver.Options) (modelserver.Server, error) {
	c, err := a.serverConfig()
	if err != nil {
		return nil, err
	}
	return a.newServer(c, o)
}

func firstOf(values ...string) string {
	for _, v := range values {
		if strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// ModelServerSettings is the model server as the settings panel shows it
// (the API key never leaves Loom: only whether one is kept).
func (a *App) ModelServerSettings() (*ModelServerSettings, error) {
	if a.web {
		return &ModelServerSettings{Unavailable: webModelServer, Provider: string(modelserver.Ollama)}, nil
	}
	s := a.saved()
	c, _ := a.serverConfig()
	return &ModelServerSettings{Available: true, Provider: string(c.Provider), OllamaURL: s.OllamaURL, OpenAIURL: s.OpenAIURL,
		DefaultOllamaURL: ollamaAddress(a.ollamaURL()), DefaultOpenAIURL: firstOf(os.Getenv(modelserver.EnvOpenAIURL), openai.DefaultURL),
		HasAPIKey: firstOf(s.APIKey, os.Getenv(modelserver.EnvAPIKey)) != "",
		ChatModel: s.ChatModel, EmbedModel: s.EmbedModel, ContextLength: s.ContextLength}, nil
}

// SetModelServer saves the model server's settings (what the panel sends;
// an empty API key keeps the kept one) and returns its status with them.
// Settings that are not valid (an unknown provider, an address that is
// not one) are refused and nothing is saved. The open workspace keeps the
// embedder it uses; a re-embed changes it.
func (a *App) SetModelServer(next ModelServerSettings) (*OllamaStatus, error) {
	if a.web {
		return nil, &Error{Code: CodeUnavailable, Message: webModelServer}
	}
	p, err := modelserver.ParseProvider(next.Provider)
	if err != nil {
		return nil, &Error{Code: CodeInvalid, Message: "Pick Ollama or an OpenAI-compatible server.", Err: err}
	}
	if next.ContextLength < 0 {
		return nil, &Error{Code: CodeInvalid, Message: "The context length is a number of tokens (0 for none)."}
	}
	kept := modelServerSettings{Provider: string(p), OllamaURL: strings.TrimSpace(next.OllamaURL), OpenAIURL: strings.TrimSpace(next.OpenAIURL),
		ChatModel: strings.TrimSpace(next.ChatModel), EmbedModel: strings.TrimSpace(next.EmbedModel), ContextLength: next.ContextLength}
	if kept.OllamaURL != "" {
		if _, err := ollama.ParseURL(kept.OllamaURL); err != nil {
			return nil, &Error{Code: CodeInvalid, Message: "The Ollama address is not valid: give one such as http://127.0.0.1:11434.", Err: err}
		}
	}
	if kept.OpenAIURL != "" {
		if _, err := openai.ParseURL(kept.OpenAIURL); err != nil {
			return nil, &Error{Code: CodeInvalid, Message: "The server's address is not valid: give one such as " + openai.DefaultURL + ".", Err: err}
		}
	}
	a.saved() // the kept key, read before it is kept again
	a.settingsMu.Lock()
	switch {
	case next.ForgetAPIKey:
	case strings.TrimSpace(next.APIKey) != "":
		kept.APIKey = strings.TrimSpace(next.APIKey)
	case a.savedServer != nil:
		kept.APIKey = a.savedServer.APIKey
	}
	s := a.loadSettings()
	s.ModelServer = &kept
	err = saveSettings(s)
	if err == nil {
		a.savedServer = &kept
	}
	a.settingsMu.Unlock()
	if err != nil {
		return nil, err
	}
	return a.Ollama()
}

// Ollama reports whether the model server (Ollama, or the OpenAI-compatible
// server configured) is up and its models with what each can do.
func (a *App) Ollama() (*OllamaStatus, error) {
	c, cfgErr := a.serverConfig()
	st := &OllamaStatus{Provider: string(c.Provider), Server: serverName(c.Provider), URL: c.URL, Models: []ModelInfo{},
		ChatModel: c.ChatModel, EmbedModel: c.EmbedModel}
	var client modelserver.Server
	if cfgErr == nil {
		client, cfgErr = a.newServer(c, modelserver.Options{Timeout: ollamaStatusRequest})
	}
	if cfgErr != nil {
		st.Code, st.Problem = CodeInvalid, "The model server's settings are not valid: "+cfgErr.Error()
		st.Fix = "Correct them in Settings (Model server), or set " + OllamaEnv + " (or OLLAMA_HOST) to Ollama's address, such as http://127.0.0.1:11434."
		if a.web {
			st.Fix = "Set Ollama's address above, such as http://127.0.0.1:11434."
		}
		return st, nil
	}
	st.URL = client.URL()
	ctx, cancel := context.WithTimeout(a.ctx, ollamaStatusWhole)
	defer cancel()
	models, err := client.Models(ctx)
	st.Server = client.Name()
	if err != nil {
		if a.ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			err = errs.Wrap(errs.OllamaTimeout, err, "the status check ran out of time") // the whole check's bound, not the person's cancel
		}
		st.Code = ErrorCode(errs.CodeOf(err))
		waited := ollamaStatusRequest
		var oe *ollama.Error
		var xe *openai.Error
		if !errors.As(err, &oe) && !errors.As(err, &xe) {
			waited = ollamaStatusWhole
		}
		st.Problem, st.Fix = a.serverProblem(client, st.Code, err, waited)
		return st, nil
	}
	st.Up = true
	for _, m := range models {
		st.Models = append(st.Models, a.modelInfo(client, m))
	}
	if len(st.Models) == 0 {
		st.Code = CodeOllamaModelMissing
		st.Problem = st.Server + " is running but has no models."
		st.Fix = "Pull one, for example `ollama pull llama3.2`, then press Retry."
		if c.Provider == modelserver.OpenAI {
			st.Problem = strings.ToUpper(st.Server[:1]) + st.Server[1:] + " is running but lists no models."
			st.Fix = "Load a model in it (LM Studio: `lms load MODEL`; llama.cpp: `llama-server -m MODEL.gguf`), then press Retry."
		}
	}
	st.Missing = missingModels(client, models, c)
	return st, nil
}

// serverName is what to call a provider's server before it has answered.
func serverName(p modelserver.Provider) string {
	if p == modelserver.OpenAI {
		return "the OpenAI-compatible server"
	}
	return ollama.Name
}

// modelInfo is a listed model as the page shows it.
func (a *App) modelInfo(srv modelserver.Server, m chat.ModelInfo) ModelInfo {
	window := m.ContextLength
	if m.ServerWindow > 0 {
		window = m.ServerWindow
	}
	info := ModelInfo{Name: m.Name, ContextLength: m.ContextLength, ServerWindow: m.ServerWindow, Tools: m.Tools, Embedding: m.Embedding,
		Completion: m.Completion, Vision: m.Vision, Thinking: m.Thinking, Unknown: m.Unknown, MaxBudget: a.maxBudget(window)}
	if m.Embedding || !m.Knows("embedding") {
		info.EmbedderID = srv.EmbedRemote(m.Name).ID()
	}
	return info
}

// missingModels are the settings' models the server does not list.
func missingModels(srv modelserver.Server, models []chat.ModelInfo, c modelserver.Config) []MissingModel {
	var out []MissingModel
	for _, want := range []struct{ name, use string }{{c.ChatModel, "chat"}, {c.EmbedModel, "embeddings"}} {
		if want.name == "" {
			continue
		}
		found := false
		for _, m := range models {
			found = found || chat.SameModel(m.Name, want.name)
		}
		if !found {
			out = append(out, MissingModel{Name: want.name, Use: want.use, Fix: sentence(srv.MissingModel(want.name).Error())})
		}
	}
	return out
}

// serverProblem says why the server did not answer (its code, and err)
// and what to do; waited is how long a timeout waited.
func (a *App) serverProblem(srv modelserver.Server, code ErrorCode, err error, waited time.Duration) (problem, fix string) {
	name, url := srv.Name(), srv.URL()
	if srv.Provider() == modelserver.OpenAI && code == CodeOllamaNotRunning {
		return "Nothing answers at " + url + ".",
			"Start your OpenAI-compatible server there (LM Studio: its Developer tab or `lms server start`; llama.cpp: `llama-server -m MODEL.gguf --port 8080`; vLLM: `vllm serve MODEL`), or change the address in Settings, then press Retry."
	}
	title := strings.ToUpper(name[:1]) + name[1:]
	switch {
	case a.web && code == CodeOllamaNotRunning:
		// A page cannot tell "not running" from "refused by CORS": the
		// browser hides the reason. Say both, and exactly what to set.
		return "The page could not reach Ollama at " + url + ": it is not running, or it refused this page (CORS).",
			"Start Ollama allowing this page: `OLLAMA_ORIGINS=" + pageOrigin() + " ollama serve` (or add the origin to OLLAMA_ORIGINS where Ollama runs as a service), then press Retry."
	case code == CodeOllamaNotRunning:
		return "Ollama is not running at " + url + ".", "Start it with `ollama serve` (install it from ollama.com), or set its address in Settings (or " + OllamaEnv + "), then press Retry."
	case code == CodeOllamaTimeout:
		return title + " at " + url + " did not answer within " + wait.Human(waited) + ".",
			"It may be loading a model or stuck: wait a moment and press Retry, or restart it."
	default:
		return title + " at " + url + " answered with something Loom could not read: " + err.Error(), "Check that the address points at " + name + " (not another server), then press Retry."
	}
}

// ReembedProgress is the event the page gets while a re-embed runs.
type ReembedProgress struct {
	backend.ReembedProgress
	// Target is what the workspace is being re-embedded with, as asked.
	Target string `json:"target"`
	// Automatic: the engine's own re-embed of a workspace that started on
	// the offline table, with the full encoder, in the background
	// (upgrade.go); the page did not ask for it. One that Canceled stopped
	// for an ingest starts again after it.
	Automatic bool   `json:"automatic,omitempty"`
	Finished  bool   `json:"finished"`
	Canceled  bool   `json:"canceled,omitempty"`
	Error     string `json:"error,omitempty"`
}

// Reembed embeds the open workspace again with target — the name of one
// of the model server's embedding models, or "offline" for the offline
// embedder — and rebuilds its concepts, reporting progress as
// reembed:progress events. It commits whole or not at all: cancelling it
// (CancelReembed), a failure of the server, or quitting leaves the
// workspace with its old embedder; the vectors already made are kept for
// the next try.
func (a *App) Reembed(target string) (*backend.ReembedReport, error) {
	if strings.TrimSpace(target) == "" {
		return nil, &Error{Code: CodeInvalid, Message: "Say which embedder to re-embed with."}
	}
	a.jobs.mu.Lock()
	// The background re-embed of a workspace that started on the table
	// gives way: the person chose an embedder.
	a.stopUpgradeLocked(true)
	if job := a.jobs.runningLocked(); job != "" {
		a.jobs.mu.Unlock()
		return nil, &Error{Code: CodeBusy, Message: "The workspace cannot be re-embedded while " + job + " runs: wait for it to finish."}
	}
	ctx, cancel := context.WithCancel(a.ctx)
	a.jobs.reembed = cancel
	a.jobs.mu.Unlock()
	defer func() {
		cancel()
		a.jobs.mu.Lock()
		a.jobs.reembed = nil
		a.jobs.mu.Unlock()
	}()
	if err := a.waitReady(); err != nil {
		return nil, err
	}
	var rep *backend.ReembedReport
	err := a.use(func(ws workspace) (err error) {
		rep, err = a.runReembed(ctx, ws, target, false)
		return err
	})
	return rep, err
}

// runReembed re-embeds ws with target, telling the page its progress;
// automatic marks the background re-embed of upgrade.go.
func (a *App) runReembed(ctx context.Context, ws workspace, target string, automatic bool) (*backend.ReembedReport, error) {
	emit := func(p ReembedProgress) {
		p.Target, p.Automatic = target, automatic
		a.shell.Emit(a.ctx, EventReembedProgress, p)
	}
	emit(ReembedProgress{})
	var rep *backend.ReembedReport
	e, choice, err := a.config(a.dir).OpenEmbedder(ctx, target)
	if err == nil {
		rep, err = ws.Reembed(ctx, e, choice, func(p backend.ReembedProgress) { emit(ReembedProgress{ReembedProgress: p}) })
	}
	if err == nil {
		// Whatever was still to do in the background is done, or the
		// person chose another embedder: before the page hears the end.
		a.clearPending()
	}
	final := ReembedProgress{Finished: true, Canceled: ctx.Err() != nil && a.ctx.Err() == nil}
	if rep != nil {
		final.Done, final.Total, final.Elapsed = rep.Nodes, rep.Nodes, rep.Duration
	}
	if err != nil && !final.Canceled {
		final.Error = sentence(err.Error())
	}
	emit(final)
	if final.Canceled {
		return rep, &Error{Code: CodeCanceled, Message: "The re-embed was cancelled: the workspace keeps the embedder it had.", Err: err}
	}
	return rep, err
}

// CancelReembed stops the running re-embed; the workspace keeps its old
// embedder.
func (a *App) CancelReembed() {
	a.jobs.mu.Lock()
	defer a.jobs.mu.Unlock()
	if a.jobs.auto != nil {
		// The person stopped the background re-embed: the workspace stays
		// on the table (the page offers the full encoder again).
		a.stopUpgradeLocked(true)
		return
	}
	if a.jobs.reembed != nil {
		a.jobs.reembed()
	}
}

// maxBudget is the most context a question may ask for in a window: the
// open workspace's limits, else the defaults' (no workspace yet).
func (a *App) maxBudget(window int) int {
	a.benchMu.RLock()
	defer a.benchMu.RUnlock()
	if a.bench != nil {
		if l, err := a.bench.BudgetLimits(window); err == nil {
			return l.MaxBudget
		}
	}
	return backend.DefaultBudgetLimits(window).MaxBudget
}
