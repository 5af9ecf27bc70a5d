package library

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/loomwork/loom/backend/classify"
	"github.com/loomwork/loom/backend/concepts"
	"github.com/loomwork/loom/backend/crash"
	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/storage"
	"github.com/loomwork/loom/graphdb"
)

// IngestOptions tune one ingest run.
type IngestOptions struct {
	// Progress is called after every file and every group of documents,
	// from the ingesting goroutine.
	Progress func(Progress)
	// Prune removes documents that came from the given folders but whose
	// files no longer exist.
	Prune bool
	// BatchQuads is how many quads a transaction gathers before it commits
	// (0: DefaultBatchQuads). Each document commits whole whatever it is;
	// smaller batches commit more often, bigger ones faster.
	BatchQuads int
}

// Progress reports an ingest in flight.
type Progress struct {
	FilesDone  int           `json:"files_done"`
	FilesTotal int           `json:"files_total"`
	BytesDone  int64         `json:"bytes_done"`
	BytesTotal int64         `json:"bytes_total"`
	Documents  int           `json:"documents"`
	Errors     int           `json:"errors"`
	Current    string        `json:"current"`
	Elapsed    time.Duration `json:"elapsed"`
	// Embedded of ToEmbed sections of Current have been embedded: a long
	// document's progress inside the file (both 0 between embeddings).
	Embedded int `json:"sections_embedded"`
	ToEmbed  int `json:"sections_to_embed"`
	// Stage is "embedding" while the files are embedded before the
	// library is changed (questions go on meanwhile; see embedAhead),
	// then "writing" while the library is written; "" for an ingest done
	// in one stage (its embedder is fast). The file counts start again at
	// each stage.
	Stage string `json:"stage,omitempty"`
	// Written counts the documents of this ingest already in the library:
	// a large drop embedded by a slow embedder is written in rounds (see
	// ingestRounds), each searchable as soon as it is written.
	Written int `json:"written,omitempty"`
}

// The stages of an ingest (Progress.Stage).
const (
	StageEmbedding = "embedding"
	StageWriting   = "writing"
)

// IngestReport is what an ingest run did.
type IngestReport struct {
	Files     int `json:"files"`
	Added     int `json:"added"`
	Updated   int `json:"updated"`
	Unchanged int `json:"unchanged"`
	// Unread counts the unchanged files left unread: git, or their size
	// and modification time, said they had not changed (see changes.go).
	Unread int `json:"unread"`
	// Reread counts the updated documents whose files had not changed,
	// read again because this Loom reads their format better than the one
	// that read them (ingest.ReaderVersion).
	Reread          int           `json:"reread,omitempty"`
	Removed         int           `json:"removed"`
	Nodes           int           `json:"nodes"`
	ConceptsCreated int           `json:"concepts_created"`
	Bytes           int64         `json:"bytes"`
	Errors          []error       `json:"-"`
	Embedder        string        `json:"embedder"`
	Duration        time.Duration `json:"duration_ns"`
	Canceled        bool          `json:"canceled"`

	// Skipped are the files of the folders given that were left out on
	// purpose (a format Loom does not read, a second name for a file
	// already included), each with the reason. They are not errors.
	Skipped []ingest.Skipped `json:"-"`
	// Warnings are problems that lost nothing (front matter kept as text
	// because it could not be read), each naming its file.
	Warnings []string `json:"-"`
	// Hidden counts the hidden files and folders (.git among them) and the
	// node_modules folders left out of the folders given.
	Hidden int `json:"hidden"`
}

const (
	groupDocs = 256 // documents prepared (chunked, counted, embedded) together
	// DefaultBatchQuads is IngestOptions.BatchQuads's default: Cayley's
	// bolt store writes ~45k quads/s in batches this big, ~0.9k/s one
	// quad a commit.
	DefaultBatchQuads = 20000
)

// Ingest reads files and folders into the workspace. Each document commits
// whole or not at all (documents are grouped into large transactions); an
// unchanged file (same content hash) is skipped; a changed one replaces its
// old nodes and edges. Bad files are reported in the report's Errors and
// the rest go on. Cancelling ctx stops after committing the documents
// already processed.
func (w *Library) Ingest(ctx context.Context, paths []string, opts IngestOptions) (*IngestReport, error) {
	if err := w.ws.Writable("ingest"); err != nil {
		return nil, err
	}
	return w.ingestWalked(ctx, ingest.Walk(paths), paths, opts)
}

// ingestWalked is Ingest of files already found (Walk's, or uploads named
// by the page); roots are the paths Prune looks under.
func (w *Library) ingestWalked(ctx context.Context, walked ingest.WalkResult, roots []string, opts IngestOptions) (*IngestReport, error) {
	if sizes := w.rounds(ctx, walked.Files); len(sizes) > 1 {
		return w.ingestRounds(ctx, walked, roots, opts, sizes)
	}
	return w.ingestOnce(ctx, walked, roots, opts, nil)
}

// round is one round of an ingest written in rounds (nil: the whole
// ingest at once).
type round struct {
	all  []ingest.File // every file of the ingest: a link may name one of a later round
	last bool          // the last round prunes and records the repositories' commits
	// changes are the whole ingest's, found once before the first round
	// (git is asked once, not by every round's two stages).
	changes *changeSet
	code    *roundsCode // the ingest's source code, shared by its rounds (nil: none)
}

// parsedCode is the source code of the ingest parsed before its first
// round, by path (nil: none, or an ingest at once).
func (r *round) parsedCode() map[string]parsed {
	if r == nil || r.code == nil {
		return nil
	}
	return r.code.parsed
}

// changesOf is which of files changed since the last ingest: the whole
// ingest's when it is written in rounds (r), else found now. The caller
// holds the workspace's lock.
func (w *Library) changesOf(ctx context.Context, ix *index.Graph, files []ingest.File, roots []string, r *round) *changeSet {
	if r != nil && r.changes != nil {
		return r.changes
	}
	return w.changes(ctx, ix, files, roots)
}

// roundsCode is the source code of an ingest in rounds. Its files are
// read and parsed once, before the first round, and make one symbol
// table: a name is resolved as it would be were the ingest written at
// once, and an edge to a definition of a later round waits for it
// (symbolTable.pending) — it is written with that definition's document.
type roundsCode struct {
	parsed  map[string]parsed // every source file of the ingest, by its path
	unread  []ingest.File     // its files unchanged since the last ingest (not read again)
	symbols *symbolTable      // made by the first round
}

// firstRound is how many files the first round of an ingest in rounds
// holds; each round after holds twice as many as the one before.
const firstRound = 4

// rounds is how many files each round of an ingest of files takes (nil:
// one round). An embedder that takes its time (the full encoder: about
// 30 ms a section on two cores; a model server) would make a large drop
// searchable only when all of it has been embedded: it is written in
// rounds of 4, 8, 16 … files instead, each one searchable as soon as it
// is written. Source code is too, with one symbol graph for all of it
// (roundsCode).
func (w *Library) rounds(ctx context.Context, files []ingest.File) []int {
	if len(files) <= firstRound {
		return nil
	}
	w.ws.Lock()
	slow := false
	if e, err := w.ws.Embedder(ctx); err == nil {
		if ix, err := w.ws.Index(ctx); err == nil {
			slow = w.firstStage(e, ix) // rounds are first and second stages by turns
		}
	}
	w.ws.Unlock()
	if !slow {
		return nil
	}
	var sizes []int
	for n, left := firstRound, len(files); left > 0; n *= 2 {
		sizes = append(sizes, min(n, left))
		left -= min(n, left)
	}
	return sizes
}

// ingestRounds is an ingest written in rounds of sizes files (see
// rounds): each round embeds its files (questions go on) and then writes
// them, and the next round starts. Progress counts the whole ingest;
// Progress.Written says how many of its documents are in the library. A
// cancel stops after the round it came in (which keeps what it embedded,
// as an ingest does). Nothing but the round being written is ever half
// done: each round commits as an ingest does.
func (w *Library) ingestRounds(ctx context.Context, walked ingest.WalkResult, roots []string, opts IngestOptions, sizes []int) (*IngestReport, error) {
	wall := time.Now()
	total := &IngestReport{}
	var bytesTotal, bytesBefore int64
	for _, f := range walked.Files {
		bytesTotal += f.Size
	}
	w.ws.Lock()
	ix, err := w.ws.Index(ctx)
	if err != nil {
		w.ws.Unlock()
		return nil, err
	}
	cs := w.changes(ctx, ix, walked.Files, roots)
	iopts, err := w.ws.IngestOptions()
	w.ws.Unlock()
	if err != nil {
		return nil, err
	}
	code := readCode(ctx, walked.Files, cs, iopts)
	filesBefore, docsBefore, written := 0, 0, 0
	var last Progress
	report := func(p Progress) {
		p.FilesDone += filesBefore
		p.FilesTotal = len(walked.Files)
		p.BytesDone += bytesBefore
		p.BytesTotal = bytesTotal
		p.Documents += docsBefore
		p.Written = written
		p.Elapsed = time.Since(wall)
		last = p
		if opts.Progress != nil {
			opts.Progress(p)
		}
	}
	start := 0
	for i, n := range sizes {
		files := walked.Files[start : start+n]
		start += n
		part := ingest.WalkResult{Files: files}
		if i == 0 { // what the walk found wrong or left out is reported once
			part.Errors, part.Skipped, part.Hidden = walked.Errors, walked.Skipped, walked.Hidden
		}
		ropts := opts
		ropts.Progress = report
		rep, err := w.ingestOnce(ctx, part, roots, ropts, &round{all: walked.Files, last: i == len(sizes)-1, changes: cs, code: code})
		if rep != nil {
			total.add(rep)
		}
		if err != nil {
			return total, err
		}
		written += rep.Added + rep.Updated
		docsBefore = last.Documents
		filesBefore += n
		for _, f := range files {
			bytesBefore += f.Size
		}
		if rep.Canceled {
			break
		}
		if i < len(sizes)-1 {
			report(Progress{Stage: StageWriting}) // this round is in the library
		}
	}
	total.Files = len(walked.Files)
	total.Duration = time.Since(wall)
	return total, nil
}

// readCode reads and parses the source files of an ingest in rounds that
// changed since the last ingest (cs), and lists those that did not (nil:
// it has none).
func readCode(ctx context.Context, files []ingest.File, cs *changeSet, iopts ingest.Options) *roundsCode {
	if !slices.ContainsFunc(files, func(f ingest.File) bool { return ingest.ParsesAsCode(f.Path) }) {
		return nil
	}
	c := &roundsCode{}
	var read []ingest.File
	for _, f := range files {
		if cs.unchanged[f.Abs] {
			c.unread = append(c.unread, f)
		} else {
			read = append(read, f)
		}
	}
	c.parsed = parseAhead(ctx, read, iopts, nil)
	return c
}

// add adds what one round of an ingest did to the whole ingest's report.
func (r *IngestReport) add(o *IngestReport) {
	r.Added += o.Added
	r.Updated += o.Updated
	r.Unchanged += o.Unchanged
	r.Unread += o.Unread
	r.Reread += o.Reread
	r.Removed += o.Removed
	r.Nodes += o.Nodes
	r.ConceptsCreated += o.ConceptsCreated
	r.Bytes += o.Bytes
	r.Errors = append(r.Errors, o.Errors...)
	r.Skipped = append(r.Skipped, o.Skipped...)
	r.Warnings = append(r.Warnings, o.Warnings...)
	r.Hidden += o.Hidden
	r.Embedder = o.Embedder
	r.Canceled = r.Canceled || o.Canceled
}

// ingestOnce is an ingest of walked's files in one piece, or one round of
// an ingest in rounds (r).
func (w *Library) ingestOnce(ctx context.Context, walked ingest.WalkResult, roots []string, opts IngestOptions, r *round) (*IngestReport, error) {
	start := w.ws.Now()
	wall := time.Now()
	var first *ahead
	if len(walked.Files) > 0 {
		var err error
		first, err = w.embedAhead(ctx, walked.Files, roots, r, func(p Progress) {
			if opts.Progress != nil {
				opts.Progress(p)
			}
		})
		if err != nil {
			return nil, err
		}
	}
	canceledAhead := first != nil && first.canceled
	if canceledAhead {
		// Cancelled while embedding: what was embedded is still written,
		// as a cancel keeps the documents already done.
		ctx = context.WithoutCancel(ctx)
	}
	w.ws.Lock()
	defer w.ws.Unlock()
	e, err := w.ws.Embedder(ctx)
	if err != nil {
		return nil, err
	}
	ix, err := w.ws.Index(ctx)
	if err != nil {
		return nil, err
	}
	if w.ws.Meta().Embedder != "" && w.ws.Meta().Embedder != e.ID() && len(ix.Docs) > 0 {
		if _, err := w.reembedLocked(ctx, e, nil); err != nil {
			return nil, err
		}
		ix = w.ws.CurrentIndex()
	}
	// Keep the query index live through the ingest, so the next question
	// needs no rebuild.
	if _, err := w.ws.Search(ctx); err != nil {
		return nil, err
	}
	if w.ws.FirstWrite() && !w.ws.InMemory() {
		// Leftovers of an ingest that was interrupted, swept once per
		// open, beside this ingest (a listing of every content folder).
		w.ws.Background().Go(func() { w.ws.Texts().SweepTemps() })
	}
	rep := &IngestReport{Embedder: e.ID()}
	files := walked.Files
	rep.Errors = append(rep.Errors, walked.Errors...)
	rep.Skipped, rep.Hidden = walked.Skipped, walked.Hidden
	rep.Files = len(files)
	if canceledAhead {
		done := files[:0:0]
		for _, f := range files {
			if first.embedded[f.Abs] {
				done = append(done, f)
			}
		}
		files = done
	}
	prog := Progress{FilesTotal: len(files)}
	if first != nil {
		prog.Stage = StageWriting
	}
	for _, f := range files {
		prog.BytesTotal += f.Size
	}
	report := func(current string) {
		prog.Errors, prog.Current, prog.Elapsed = len(rep.Errors), current, time.Since(wall)
		if opts.Progress != nil {
			opts.Progress(prog)
		}
	}
	iopts, err := w.ws.IngestOptions()
	if err != nil {
		return nil, err
	}
	batchQuads := opts.BatchQuads
	if batchQuads <= 0 {
		batchQuads = DefaultBatchQuads
	}
	b := newBatch()
	run := files // the files a link may name
	if r != nil {
		run = r.all
	}
	links := newLinkResolver(ix.Docs, run)
	links.read = func(f ingest.File) ([]byte, error) { return ingest.ReadFile(f, iopts) }
	cs := w.changesOf(ctx, ix, files, roots, r)
	links.unchanged = cs.unchanged
	for _, g := range cs.gone {
		if id, ok := ix.DocByKey[g]; ok {
			w.removeDoc(ix, b, id)
			rep.Removed++
		}
	}
	var unread []ingest.File
	if len(cs.unchanged) > 0 {
		kept := files[:0:0]
		for _, f := range files {
			if cs.unchanged[f.Abs] {
				unread = append(unread, f)
				rep.Unchanged++
				rep.Unread++
				prog.FilesDone++
				prog.BytesDone += f.Size
				continue
			}
			kept = append(kept, f)
		}
		files = kept
	}
	var have map[string]parsed
	if first != nil {
		have = first.parsed
	}
	// What the ingest holds, before it reads its source code ahead (the
	// web edition may fetch a grammar meanwhile): the page shows the count
	// at once instead of "0 / 0 files".
	report("")
	parsedCode := have
	if r != nil && r.code != nil {
		// In rounds: the source code was parsed before the first round,
		// which makes the symbol table of all of it.
		parsedCode = r.code.parsed
		if r.code.symbols == nil && r.code.parsed != nil {
			r.code.symbols = newSymbolTable(ix, runDocs(r.code.parsed))
			rep.Warnings = append(rep.Warnings, w.pendingSymbolEdges(ctx, ix, r.code.symbols, r.code.parsed, r.code.unread, iopts, start)...)
		}
		links.symbols = r.code.symbols
	}
	pre := parseAhead(ctx, files, iopts, parsedCode)
	if pre != nil && links.symbols == nil {
		links.symbols = newSymbolTable(ix, runDocs(pre))
		rep.Warnings = append(rep.Warnings, w.pendingSymbolEdges(ctx, ix, links.symbols, pre, unread, iopts, start)...)
	}
	for _, f := range files {
		if ctx.Err() != nil {
			rep.Canceled = true
			break
		}
		report(f.Path)
		var (
			size int
			docs []ingest.Document
			err  error
		)
		if p, ok := pre[f.Abs]; ok {
			size, docs, err = p.size, p.docs, p.err
		} else if p, ok := have[f.Abs]; ok {
			size, docs, err = p.size, p.docs, p.err
		} else {
			var data []byte
			data, err = ingest.ReadFile(f, iopts)
			size = len(data)
			if err == nil {
				docs, err = ingest.Parse(f.Abs, f.Path, f.Collection, data, iopts)
			}
		}
		if err == nil {
			if trustedTime(f.ModTime) {
				for i := range docs {
					if docs[i].Key == f.Abs {
						docs[i].ModTime = f.ModTime
					}
				}
			}
			for _, d := range docs {
				for _, wn := range d.Warnings {
					rep.Warnings = append(rep.Warnings, f.Abs+": "+wn)
				}
			}
			if err == nil && len(docs) > 0 && recordFormat(string(docs[0].Format)) {
				rep.Removed += w.dropVanishedRecords(ix, b, f.Abs, docs)
			}
			for g := 0; g < len(docs) && ctx.Err() == nil; g += groupDocs {
				group := docs[g:min(g+groupDocs, len(docs))]
				var todo []ingest.Document
				for _, d := range group {
					if old, ok := ix.Docs[model.DocumentID(d.Collection, d.Path)]; ok && old.Hash == d.Hash && !readsDifferently(old) {
						rep.Unchanged++
						continue
					}
					todo = append(todo, d)
				}
				prepared, perr := w.prepareKind(ctx, e, todo, iopts, model.KindInput, "", func(done, total int) {
					prog.Embedded, prog.ToEmbed = done, total
					report(f.Path)
				})
				prog.Embedded, prog.ToEmbed = 0, 0
				if perr != nil {
					w.ws.Invalidate()
					return rep, perr
				}
				for _, pd := range prepared {
					if old, existed := ix.Docs[pd.id]; existed {
						rep.Updated++
						if old.Hash == pd.doc.Hash {
							rep.Reread++
						}
					} else {
						rep.Added++
					}
					rep.Nodes += len(pd.nodes)
					rep.ConceptsCreated += w.linkWith(ix, b, pd, start, links)
				}
				prog.Documents += len(group)
				if b.quads >= batchQuads {
					if err := w.flush(context.WithoutCancel(ctx), ix, b); err != nil {
						return rep, err
					}
					b = newBatch()
				}
				if len(docs) > groupDocs {
					report(f.Path)
				}
			}
		}
		var skip *ingest.SkipError
		if errors.As(err, &skip) {
			rep.Skipped = append(rep.Skipped, ingest.Skipped{Path: f.Abs, Reason: skip.Reason})
		} else if err != nil {
			rep.Errors = append(rep.Errors, err)
		}
		prog.FilesDone++
		prog.BytesDone += f.Size
		rep.Bytes += int64(size)
	}
	if ctx.Err() != nil || canceledAhead {
		rep.Canceled = true
	}
	if opts.Prune && !rep.Canceled && (r == nil || r.last) {
		rep.Removed += w.pruneInto(ix, b, roots)
	}
	if err := w.flush(context.WithoutCancel(ctx), ix, b); err != nil {
		return rep, err
	}
	if !rep.Canceled && (r == nil || r.last) {
		w.recordRepos(cs)
	}
	report("")
	crash.At("ingest-before-caches")
	w.ws.SaveCaches()
	rep.Duration = time.Since(wall)
	return rep, nil
}

// pendingSymbolEdges finds the edges of the files an ingest leaves unread
// (or reads and finds unchanged) to the definitions it adds: a call of a function that did not exist
// yet when its file was indexed resolves now. Only unread source files
// that mention one of the new names are read and parsed; the edges are
// written with the new definitions' documents (symbolTable.addPending).
// A file that cannot be read or parsed again keeps the edges it had, and
// the warning returned says so.
func (w *Library) pendingSymbolEdges(ctx context.Context, ix *index.Graph, t *symbolTable, pre map[string]parsed, unread []ingest.File, iopts ingest.Options, now time.Time) (warnings []string) {
	names := t.freshNames()
	if len(names) == 0 {
		return nil
	}
	// Files read again whose text is the same are not linked again either.
	for _, p := range pre {
		for i := range p.docs {
			d := &p.docs[i]
			if old, ok := ix.Docs[model.DocumentID(d.Collection, d.Path)]; ok && old.Hash == d.Hash && !readsDifferently(old) {
				t.addPending(ix, d, now)
			}
		}
	}
	words := make([][]byte, len(names))
	for i, n := range names {
		words[i] = []byte(n)
	}
	for _, f := range unread {
		if ctx.Err() != nil {
			return warnings
		}
		if !ingest.ParsesAsCode(f.Path) {
			continue
		}
		if _, ok := ix.DocByKey[f.Abs]; !ok {
			continue
		}
		data, err := ingest.ReadFile(f, iopts)
		if err == nil && !slices.ContainsFunc(words, func(w []byte) bool { return bytes.Contains(data, w) }) {
			continue
		}
		var docs []ingest.Document
		if err == nil {
			docs, err = ingest.Parse(f.Abs, f.Path, f.Collection, data, iopts)
		}
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: unchanged, but its calls of the definitions this ingest added are not linked: %v", f.Abs, err))
			continue
		}
		for i := range docs {
			t.addPending(ix, &docs[i], now)
		}
	}
	return warnings
}

// preparedDoc is a document chunked, counted, classified and embedded,
// ready to be linked.
type preparedDoc struct {
	id    string
	doc   ingest.Document
	nodes []model.ContentNode
	texts []string
	terms [][]string // keyword-index terms per node
	vecs  [][]float32
	kind  model.Kind // provenance of every node (input unless set)
}

// prepareKind chunks, counts and classifies documents in parallel, then
// embeds every section whose vector is not already stored, for nodes of
// the given provenance (answers are output nodes) with an optional
// provenance sentence. onEmbed, when not nil, is told how many of the
// sections to embed are done when they are more than EmbedChunk: they go
// to the embedder EmbedChunk at a time, so that a long document shows its
// progress.
func (w *Library) prepareKind(ctx context.Context, e embed.Embedder, docs []ingest.Document, iopts ingest.Options, kind model.Kind, provenance string, onEmbed func(done, total int)) ([]preparedDoc, error) {
	out := make([]preparedDoc, len(docs))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				d := docs[i]
				d.Chunk(iopts)
				pd := preparedDoc{id: model.DocumentID(d.Collection, d.Path), doc: d, kind: kind}
				says := &model.Document{Format: string(d.Format), Title: d.Title, Meta: d.Meta, Path: d.Path}
				prov := provenance
				if prov == "" {
					prov = "ingest " + d.Collection + "/" + d.Path
				}
				for _, s := range d.Sections {
					h := storage.Hash(s.Text)
					c := classify.Classify(s.Text)
					id := "n-" + model.ShortHash(pd.id, fmt.Sprint(s.Ordinal), h)
					var sym *model.Symbol
					if s.Code != nil {
						id = model.CodeNodeID(pd.id, s.Ref, s.Part)
						sym = new(s.Code.Symbol)
					}
					pd.nodes = append(pd.nodes, model.ContentNode{
						ID: id, DocID: pd.id, Ref: s.Ref, Symbol: sym,
						Ancestors: s.Ancestors, HeadingPath: s.HeadingPath, LineStart: s.LineStart, LineEnd: s.LineEnd,
						Ordinal: s.Ordinal, Part: s.Part, Parts: s.Parts, ContentHash: h, Kind: kind,
						ContentType: c.Type.String(), Complexity: round3(c.Complexity), Tokens: s.Tokens,
						Provenance: prov, PageStart: s.PageStart, PageEnd: s.PageEnd,
					})
					pd.texts = append(pd.texts, s.Text)
					pd.terms = append(pd.terms, index.NodeTerms(&pd.nodes[len(pd.nodes)-1], says, s.Text))
				}
				out[i] = pd
			}
		}()
	}
	for i := range docs {
		next <- i
	}
	close(next)
	wg.Wait()

	var need []string
	var where [][2]int
	for i := range out {
		out[i].vecs = make([][]float32, len(out[i].nodes))
		for j, n := range out[i].nodes {
			if v, ok := w.ws.Vectors().Get(index.ContentKey(n.ContentHash)); ok {
				out[i].vecs[j] = v
				continue
			}
			need = append(need, out[i].doc.Sections[j].EmbedText())
			where = append(where, [2]int{i, j})
		}
	}
	step := len(need)
	if onEmbed != nil && len(need) > EmbedChunk {
		step = EmbedChunk
		onEmbed(0, len(need))
	} else {
		onEmbed = nil // one call: nothing to report inside it
	}
	for start := 0; start < len(need); start += step {
		end := min(start+step, len(need))
		vecs, err := e.Embed(ctx, need[start:end])
		if err != nil {
			return nil, fmt.Errorf("embed with %s: %w", e.ID(), err)
		}
		if len(vecs) != end-start {
			return nil, fmt.Errorf("embed with %s: got %d vectors for %d texts", e.ID(), len(vecs), end-start)
		}
		for k, ij := range where[start:end] {
			out[ij[0]].vecs[ij[1]] = vecs[k]
		}
		if onEmbed != nil {
			onEmbed(end, len(need))
		}
	}
	return out, nil
}

// foundedElsewhere tells whether concept id ("": none) was founded by a
// section of another document than doc. Two concepts of one name in one
// document (two "## Edges") have nothing that tells them apart.
func foundedElsewhere(ix *index.Graph, id, doc string) bool {
	c := ix.Concepts[id]
	if c == nil {
		return false
	}
	seed := ix.Nodes[c.Seed]
	return seed == nil || seed.DocID != doc
}

// EmbedChunk is how many sections an ingest sends the embedder at a time
// when it reports progress: a second or so of the full encoder's work on
// two cores, and one request of a model server's.
const EmbedChunk = 32

func round3(x float64) float64 { return float64(int(x*1000+0.5)) / 1000 }

// batch is the pending transaction.
type batch struct {
	write    graphdb.Write
	quads    int
	contents map[string]string
	vecs     []keyedVec
	touched  map[string]bool // concepts that lost links
}

func newBatch() *batch {
	return &batch{contents: map[string]string{}, touched: map[string]bool{}}
}

type keyedVec struct {
	key string
	vec []float32
}

// link replaces any old version of the document in the index, links every
// node to its concepts (creating concepts as needed) and adds it all to the
// batch. It returns how many concepts it created.
func (w *Library) link(ix *index.Graph, b *batch, pd preparedDoc, now time.Time) int {
	return w.linkWith(ix, b, pd, now, nil)
}

// linkWith is link with the resolver of an ingest run, which knows the
// documents still to come in it (nil: those in the index).
func (w *Library) linkWith(ix *index.Graph, b *batch, pd preparedDoc, now time.Time, links *linkResolver) int {
	if links == nil {
		links = newLinkResolver(ix.Docs, nil)
	}
	var groups []string
	if old, ok := ix.Docs[pd.id]; ok {
		groups = old.Groups // collections made by hand survive a re-ingest
		w.removeDoc(ix, b, pd.id)
	}
	doc := model.Document{ID: pd.id, Key: pd.doc.Key, Path: pd.doc.Path, Collection: pd.doc.Collection,
		Format: string(pd.doc.Format), Title: pd.doc.Title, Hash: pd.doc.Hash, Bytes: pd.doc.Bytes, Ingested: now, Modified: pd.doc.ModTime.UTC(), Groups: groups, Meta: pd.doc.Meta,
		Reader: ingest.ReaderVersion(string(pd.doc.Format))}
	dw := graphdb.DocWrite{Doc: doc}
	created := 0
	byOrdinal := map[int]string{}
	for j := range pd.nodes {
		n := pd.nodes[j]
		n.Created, n.LastAccess = now, now
		sec := pd.doc.Sections[j]
		byOrdinal[sec.Ordinal] = n.ID
		if sec.Parent >= 0 {
			if pid, ok := byOrdinal[sec.Parent]; ok && pid != n.ID {
				n.Parent = pid
				dw.Edges = append(dw.Edges, model.Edge{Kind: model.EdgeParent, From: n.ID, To: pid, Weight: 1, Created: now})
			}
		}
		for _, target := range links.resolve(pd.doc, sec.Links) {
			dw.Edges = append(dw.Edges, model.Edge{Kind: model.EdgeLinks, From: n.ID, To: target, Weight: 1, Created: now})
		}
		vec := pd.vecs[j]
		matches, best := ix.Linker.Link(vec)
		name := ""
		if len(matches) == 0 {
			name = concepts.NameIn(sec.HeadingPath, pd.doc.Title, pd.doc.Path, pd.texts[j])
			if sec.Code != nil { // the same definition name is the same concept ("package bibtex" of every file)
				if id := links.conceptNamed(ix, name); id != "" {
					if sim, ok := ix.Linker.Sim(vec, id); ok {
						matches = []concepts.Match{{ID: id, Sim: sim}}
					}
				}
			}
		}
		if len(matches) == 0 {
			if id := links.conceptNamed(ix, name); sec.Code == nil && id != "" {
				name = concepts.Distinct(name, foundedElsewhere(ix, id, pd.id), sec.HeadingPath, pd.doc.Title, pd.doc.Path, pd.texts[j],
					func(n string) bool { return links.conceptNamed(ix, n) != "" })
			}
			c := model.Concept{ID: "c-" + model.ShortHash(w.ws.EmbedderNow().ID(), n.ID), Created: now, Seed: n.ID,
				Name: name, Description: concepts.Describe(pd.texts[j])}
			links.addConcept(name, c.ID)
			if best.ID != "" {
				n.NearMiss, n.NearMissSim = best.ID, round3(best.Sim)
			}
			cw := graphdb.ConceptWrite{Concept: c}
			for _, r := range ix.Linker.Related(vec, c.ID) {
				e := model.Edge{Kind: model.EdgeRelated, From: c.ID, To: r.ID, Weight: round3(r.Sim), Created: now}
				cw.Related = append(cw.Related, e)
				ix.AddEdge(e)
			}
			ix.Linker.Add(c.ID, vec)
			ix.Concepts[c.ID] = &c
			b.vecs = append(b.vecs, keyedVec{index.ConceptKey(c.ID), vec})
			b.write.Concepts = append(b.write.Concepts, cw)
			b.quads += 2 + len(cw.Related)
			matches = []concepts.Match{{ID: c.ID, Sim: 1}}
			created++
		}
		for _, m := range matches {
			dw.Edges = append(dw.Edges, model.Edge{Kind: model.EdgeAbout, From: n.ID, To: m.ID, Weight: round3(m.Sim), Direction: string(pd.kind), Created: now})
		}
		b.contents[n.ContentHash] = pd.texts[j]
		b.vecs = append(b.vecs, keyedVec{index.ContentKey(n.ContentHash), vec})
		dw.Nodes = append(dw.Nodes, n)
		nn := n
		ix.Nodes[n.ID] = &nn
		ix.DocNodes[pd.id] = append(ix.DocNodes[pd.id], n.ID)
		if r := w.ws.LiveSearch(ix); r != nil {
			r.Add(&nn, pd.terms[j], vec)
		}
	}
	var incoming []model.Edge
	if pd.doc.Code != nil {
		if links.symbols == nil {
			links.symbols = newSymbolTable(ix, []ingest.Document{pd.doc})
		}
		for _, e := range links.symbols.symbolEdges(&pd.doc, dw.Nodes, now) {
			if doc, ok := links.symbols.runNodes[e.To]; ok && doc != pd.id && ix.Nodes[e.To] == nil {
				// A definition the run has not written yet: the edge is
				// written with it.
				links.symbols.pending[doc] = append(links.symbols.pending[doc], e)
				continue
			}
			dw.Edges = append(dw.Edges, e)
		}
		for _, e := range links.symbols.pending[pd.id] {
			// Its caller may be gone since (another writer removed its
			// document between two rounds): no edge from a node that is
			// not there.
			if ix.Nodes[e.From] != nil {
				dw.Edges = append(dw.Edges, e)
			}
		}
		delete(links.symbols.pending, pd.id)
		// Other files' edges to this one's definitions: the store dropped
		// them with the old version's nodes, the index kept them, and the
		// definitions kept their ids — write them again.
		incoming = incomingSymbolEdges(ix, pd.id, dw.Nodes)
	}
	if len(dw.Nodes) > 0 {
		for _, target := range samePaperLinks(ix, &doc) {
			dw.Edges = append(dw.Edges, model.Edge{Kind: model.EdgeLinks, From: dw.Nodes[0].ID, To: target, Weight: 1, Created: now})
		}
	}
	for _, e := range dw.Edges {
		ix.AddEdge(e)
	}
	dw.Edges = append(dw.Edges, incoming...) // in the index already
	if r := w.ws.LiveSearch(ix); r != nil {
		r.RelAdj = nil // concept graph changed: rebuilt on next query
	}
	ix.Docs[pd.id] = &doc
	ix.DocByKey[doc.Key] = pd.id
	b.write.Documents = append(b.write.Documents, dw)
	b.quads += 2 + 3*len(dw.Nodes) + len(dw.Edges)
	return created
}

// removeDoc drops a document and its nodes from the index and queues its
// removal in the batch.
func (w *Library) removeDoc(ix *index.Graph, b *batch, id string) {
	r := w.ws.LiveSearch(ix)
	if r != nil {
		r.RelAdj = nil
	}
	for _, nid := range ix.DocNodes[id] {
		if r != nil {
			r.Remove(nid)
		}
		for _, e := range ix.Out[nid] {
			if e.Kind == model.EdgeAbout {
				ix.AboutCount[e.To]--
				b.touched[e.To] = true
			}
		}
		delete(ix.Out, nid)
		delete(ix.Nodes, nid)
	}
	if d, ok := ix.Docs[id]; ok {
		delete(ix.DocByKey, d.Key)
	}
	delete(ix.Docs, id)
	delete(ix.DocNodes, id)
	b.write.Remove = append(b.write.Remove, id)
	b.quads += 16
}

// pruneInto queues the removal of documents under the given folders whose
// files are gone.
func (w *Library) pruneInto(ix *index.Graph, b *batch, roots []string) int {
	var absRoots []string
	for _, r := range roots {
		if a, err := filepath.Abs(r); err == nil {
			absRoots = append(absRoots, a)
		}
	}
	n := 0
	for id, d := range ix.Docs {
		file := DocSource(d)
		under := false
		for _, r := range absRoots {
			if file == r || strings.HasPrefix(file, r+string(filepath.Separator)) {
				under = true
			}
		}
		if !under {
			continue
		}
		if _, err := os.Stat(file); errors.Is(err, os.ErrNotExist) {
			w.removeDoc(ix, b, id)
			n++
		}
	}
	return n
}

// flush commits the batch: content files and vectors first (content-
// addressed, so orphans from a crash are harmless), then one graph
// transaction. Concepts that lost their last content link are removed in
// the same transaction.
func (w *Library) flush(ctx context.Context, ix *index.Graph, b *batch) error {
	if len(b.write.Documents) == 0 && len(b.write.Remove) == 0 && len(b.write.Concepts) == 0 && len(b.write.Touch) == 0 {
		return nil
	}
	for c := range b.touched {
		if ix.AboutCount[c] <= 0 {
			ix.RemoveConcept(c)
			b.write.Remove = append(b.write.Remove, c)
		}
	}
	crash.At("flush-start")
	// A write that fails before its commit (a full disk, say) takes back
	// the texts it made: nothing names them.
	created, err := w.ws.Texts().WriteAll(b.contents)
	failed := func(err error) error {
		w.ws.Invalidate() // the index ran ahead of the store: rebuild it on next use
		storage.RemoveFiles(created)
		return err
	}
	if err != nil {
		return failed(fmt.Errorf("store content: %w", err))
	}
	for _, kv := range b.vecs {
		if err := w.ws.Vectors().Put(kv.key, kv.vec); err != nil {
			return failed(err)
		}
	}
	crash.At("flush-after-texts")
	if err := w.ws.Vectors().Flush(); err != nil {
		return failed(fmt.Errorf("store vectors: %w", err))
	}
	crash.At("flush-after-vectors")
	// The texts and vectors reach the disk before the transaction that
	// names them: after a power cut the graph never points at a text the
	// disk lost (rename makes a file whole or absent, not durable). Texts
	// already there count too: an earlier ingest that failed before its
	// commit may have written them.
	if len(b.contents) > 0 || len(b.vecs) > 0 {
		paths := make([]string, 0, len(b.contents)+1)
		for h := range b.contents {
			paths = append(paths, w.ws.Texts().Path(h))
		}
		if err := w.ws.Sync(append(paths, w.ws.Vectors().Path())); err != nil {
			return failed(fmt.Errorf("store content: %w", err))
		}
	}
	crash.At("flush-after-sync")
	b.write.Meta = ix.Meta(w.ws.EmbedderNow().ID())
	meta, err := w.ws.Apply(ctx, b.write)
	if err != nil {
		return failed(err)
	}
	w.ws.SetMeta(meta)
	return nil
}
