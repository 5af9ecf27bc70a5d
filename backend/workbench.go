// Package backend is Loom's engine facade: the Workbench that bind (the
// page's binding layer, both editions), cmd/loom (the CLI) and the
// WebAssembly entry all call. A Workbench is one open workspace and the
// subsystems that work on it; it opens, closes and delegates, nothing
// more:
//
//	workspace     the open workspace: files, graph store, index, lock
//	levels        a node's text at a level, summaries made on need
//	query         a question → its context (classify, candidates, score,
//	              select, render) and the model's tools
//	library       ingest, documents, collections, pins, export, views
//	conversation  chat with a local model, the audit log, calibration
//
//	wb, err := backend.Open(ctx, dir, backend.WithEmbedder(e))
//	report, err := wb.Ingest(ctx, []string{"notes/"}, backend.IngestOptions{})
//	res, err := wb.Query(ctx, backend.QueryRequest{Question: "…", Budget: 4000})
package backend

import (
	"context"

	"github.com/loomwork/loom/backend/chat"
	"github.com/loomwork/loom/backend/conversation"
	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/levels"
	"github.com/loomwork/loom/backend/library"
	"github.com/loomwork/loom/backend/query"
	"github.com/loomwork/loom/backend/workspace"
	"github.com/loomwork/loom/graphdb"
)

// Workbench is an open workspace. Its methods are safe for concurrent use;
// writes are serialised.
type Workbench struct {
	ws    *workspace.Workspace
	query *query.Pipeline
	lib   *library.Library
	conv  *conversation.Conversations
}

// Open opens the workspace in dir, creating it when absent. Opening reads
// only the workspace facts; the working index loads on first need.
func Open(ctx context.Context, dir string, opts ...Option) (*Workbench, error) {
	ws, err := workspace.Open(ctx, dir, opts...)
	if err != nil {
		return nil, err
	}
	q := query.New(ws, levels.New(ws))
	lib := library.New(ws)
	return &Workbench{ws: ws, query: q, lib: lib, conv: conversation.New(ws, q, lib)}, nil
}

// Close waits for background work (answers being indexed, the persist of
// access times and summaries), saves the caches and closes the store.
func (w *Workbench) Close() error { return w.ws.Close() }

// Dir is the workspace folder.
func (w *Workbench) Dir() string { return w.ws.Dir() }

// ReadOnlyReason says why the workspace is open read-only ("" when it is
// writable).
func (w *Workbench) ReadOnlyReason() string { return w.ws.ReadOnlyReason() }

// Stats summarises the workspace. A workspace that started on the table
// and no longer waits for its re-embed (the person stopped it, or it
// failed) says it keeps the table.
func (w *Workbench) Stats(ctx context.Context) (Stats, error) {
	st, err := w.ws.Stats(ctx)
	if err == nil && st.EmbedderChoice == StartedOnTableReason && PendingReembed(w.Dir()) == "" {
		st.EmbedderChoice = KeptTableReason
	}
	return st, err
}

// ChooseEmbedder chooses the embedder now instead of on the first
// question or ingest, so Stats says which one is in use and why.
func (w *Workbench) ChooseEmbedder(ctx context.Context) { w.ws.ChooseEmbedder(ctx) }

// Warm loads the working index now instead of on the first question.
func (w *Workbench) Warm(ctx context.Context) error { return w.ws.Warm(ctx) }

// Content is the stored text with this hash, checked against it.
func (w *Workbench) Content(hash string) (string, error) { return w.ws.Content(hash) }

// Query assembles the context for a question (backend/query).
func (w *Workbench) Query(ctx context.Context, req QueryRequest) (*QueryResult, error) {
	return w.query.Query(ctx, req)
}

// BudgetLimits are the context budgets a question may ask for with a
// model of this window (0: none known).
func (w *Workbench) BudgetLimits(window int) (Limits, error) { return w.query.Limits(window) }

// FileTokens counts a file's tokens, as whole-file context would send it.
func (w *Workbench) FileTokens(path string) int { return w.query.FileTokens(path) }

// CountTokens counts s with the workspace's tokenizer, the one its
// queries assemble with.
func (w *Workbench) CountTokens(s string) (int, error) {
	count, err := w.ws.Counter()
	if err != nil {
		return 0, err
	}
	return count(s), nil
}

// Tools are the tools a model calls for more context (search_context,
// expand, get_window, catalog).
func (w *Workbench) Tools() chat.Tools { return w.query }

// SearchContext is the search_context tool in one of SearchModes
// (hybrid, keyword, semantic, regex; "" is hybrid, what chat uses).
func (w *Workbench) SearchContext(ctx context.Context, query, scope string, limit int, mode string) (chat.ToolResult, error) {
	return w.query.SearchMode(ctx, query, scope, limit, mode)
}

// Ingest reads files and folders into the workspace (backend/library).
func (w *Workbench) Ingest(ctx context.Context, paths []string, opts IngestOptions) (*IngestReport, error) {
	return w.lib.Ingest(ctx, paths, opts)
}

// IngestUploads keeps files the page sent and ingests them.
func (w *Workbench) IngestUploads(ctx context.Context, files []Upload, opts IngestOptions) (*IngestReport, error) {
	return w.lib.IngestUploads(ctx, files, opts)
}

// IngestSample ingests the sample library.
func (w *Workbench) IngestSample(ctx context.Context, opts IngestOptions) (*IngestReport, error) {
	return w.lib.IngestSample(ctx, opts)
}

// ReingestDocument reads a document's file again.
func (w *Workbench) ReingestDocument(ctx context.Context, id string, opts IngestOptions) (*IngestReport, error) {
	return w.lib.ReingestDocument(ctx, id, opts)
}

// Reembed embeds the whole workspace again with e and rebuilds its
// concepts, in one commit; the session then uses e (choice says why, in
// Stats). Cancelling ctx or a failure leaves the workspace as it was.
func (w *Workbench) Reembed(ctx context.Context, e embed.Embedder, choice string, progress func(ReembedProgress)) (*ReembedReport, error) {
	return w.lib.Reembed(ctx, e, choice, progress)
}

// RemoveDocuments removes documents and what only they held.
func (w *Workbench) RemoveDocuments(ctx context.Context, ids []string) error {
	return w.lib.RemoveDocuments(ctx, ids)
}

// Documents lists the workspace's documents.
func (w *Workbench) Documents(ctx context.Context) ([]DocumentInfo, error) {
	return w.lib.Documents(ctx)
}

// Collections lists the collections.
func (w *Workbench) Collections(ctx context.Context) ([]CollectionInfo, error) {
	return w.lib.Collections(ctx)
}

// Group adds documents to a collection made by hand (add false: removes
// them from it).
func (w *Workbench) Group(ctx context.Context, collection string, docs []string, add bool) error {
	return w.lib.Group(ctx, collection, docs, add)
}

// Pin pins nodes (pinned false: unpins them).
func (w *Workbench) Pin(ctx context.Context, ids []string, pinned bool) error {
	return w.lib.Pin(ctx, ids, pinned)
}

// Graph is the graph as the page draws it.
func (w *Workbench) Graph(ctx context.Context) (*GraphData, error) { return w.lib.Graph(ctx) }

// Clusters are the concept graph's communities, largest first: the
// clusters Graph draws and a "cluster:ID" scope takes.
func (w *Workbench) Clusters(ctx context.Context) ([]GraphCluster, error) { return w.lib.Clusters(ctx) }

// Node is one node's details.
func (w *Workbench) Node(ctx context.Context, id string) (*NodeDetail, error) {
	return w.lib.Node(ctx, id)
}

// Source is the document a content node comes from, its sections in
// order with their texts, and the section to show first: what the source
// viewer shows when a citation is clicked.
func (w *Workbench) Source(ctx context.Context, nodeID string) (*SourceView, error) {
	return w.lib.Source(ctx, nodeID)
}

// DocumentSource is Source for a document by its id, focused on its first
// section.
func (w *Workbench) DocumentSource(ctx context.Context, docID string) (*SourceView, error) {
	return w.lib.DocumentSource(ctx, docID)
}

// Locate is where a content node's text is: its file and its pages or
// lines.
func (w *Workbench) Locate(ctx context.Context, nodeID string) (*Location, error) {
	return w.lib.Locate(ctx, nodeID)
}

// ExportGraph writes the graph as graph.json (withContent: with texts).
func (w *Workbench) ExportGraph(ctx context.Context, withContent bool) (*graphdb.GraphJSON, error) {
	return w.lib.ExportGraph(ctx, withContent)
}

// ImportGraph reads a graph.json into the workspace.
func (w *Workbench) ImportGraph(ctx context.Context, g *graphdb.GraphJSON) error {
	return w.lib.ImportGraph(ctx, g)
}

// Chat answers a question with a local model (backend/conversation).
func (w *Workbench) Chat(ctx context.Context, client *chat.Client, req ChatRequest) (*ChatTurn, error) {
	return w.conv.Chat(ctx, client, req)
}

// Conversations lists the stored conversations, most recent first.
func (w *Workbench) Conversations() ([]ConversationSummary, error) { return w.conv.Conversations() }

// Conversation returns a stored conversation.
func (w *Workbench) Conversation(id string) (*Conversation, error) { return w.conv.Conversation(id) }

// Audit reads the audit log of tool calls.
func (w *Workbench) Audit() ([]AuditRecord, error) { return w.conv.Audit() }

// RecordToolCalls appends tool calls made outside a chat (by an MCP
// client: Source "mcp") to the audit log.
func (w *Workbench) RecordToolCalls(records ...AuditRecord) error { return w.conv.Record(records...) }

// LoadCalibration reads the workspace's token calibration into c.
func (w *Workbench) LoadCalibration(c *chat.Calibration) error { return w.conv.LoadCalibration(c) }

// WaitIndexing waits for answers being indexed in the background.
func (w *Workbench) WaitIndexing() { w.conv.WaitIndexing() }
