package doctor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/library"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/storage"
	"github.com/loomwork/loom/backend/vectors"
	"github.com/loomwork/loom/backend/watch"
	"github.com/loomwork/loom/backend/workspace"
	"github.com/loomwork/loom/graphdb"
)

// RepairOptions say where a salvaged workspace goes.
type RepairOptions struct {
	// Out is the folder the salvaged workspace is made in when the graph
	// store cannot be mended in place (default: the workspace's folder
	// with ".repaired" added). It must not exist or be empty.
	Out string
	// Replace puts the salvaged workspace in the damaged one's place and
	// keeps the damaged one beside it (<folder>.damaged-<n>).
	Replace bool
}

// RepairReport says what Repair did and what it could not restore.
type RepairReport struct {
	// Workspace is the repaired workspace: the same folder, or the one
	// the graph was salvaged into.
	Workspace string `json:"workspace"`
	// Salvaged: the graph store was beyond mending in place and what could
	// be read of it (or of the index cache) went into a new workspace.
	Salvaged bool `json:"salvaged"`
	// DamagedCopy is where the damaged workspace was kept (Replace).
	DamagedCopy string   `json:"damaged_copy,omitempty"`
	Actions     []string `json:"actions"`
	Lost        []string `json:"lost,omitempty"`
	// After is the doctor's checkup of the result.
	After *Checkup `json:"after"`
}

func (r *RepairReport) did(format string, args ...any) {
	r.Actions = append(r.Actions, fmt.Sprintf(format, args...))
}

func (r *RepairReport) lost(format string, args ...any) {
	r.Lost = append(r.Lost, fmt.Sprintf(format, args...))
}

// Repair mends the workspace in dir: derived caches are rebuilt, the
// workspace facts counted again, damaged vector logs cut back and missing
// vectors made again, stored texts read back from source files that still
// hold the same version, leftovers removed. A graph store that is
// damaged, or missing beside data, is salvaged instead (graphdb.Salvage,
// or the index cache when that is newer) into a new workspace, whose
// report lists what could not be recovered. opts open the workspace (the
// embedder to make vectors with). Nothing is removed that holds data the
// result does not: a salvage copies, and Replace keeps the damaged folder.
func Repair(ctx context.Context, dir string, o RepairOptions, opts ...workspace.Option) (*RepairReport, error) {
	c, err := Doctor(ctx, dir)
	if err != nil {
		return nil, err
	}
	switch c.Store {
	case "in use":
		return nil, fmt.Errorf("repair %s: %w: close it first (repair writes the workspace)", dir, storage.ErrInUse)
	case "damaged":
		return salvage(ctx, dir, o, opts)
	case "missing", "unfinished":
		if storage.WorkspaceData(dir) != "" {
			return salvage(ctx, dir, o, opts)
		}
	}
	return repairInPlace(ctx, dir, c, opts)
}

// derivedFiles are the caches the next open makes again.
func derivedFiles(dir string) []string {
	files := []string{filepath.Join(dir, "index.cache"), filepath.Join(dir, "search.cache")}
	for _, pattern := range []string{"*.rows", "*.sketch"} {
		m, _ := filepath.Glob(filepath.Join(dir, "vectors", pattern))
		files = append(files, m...)
	}
	return files
}

func repairInPlace(ctx context.Context, dir string, c *Checkup, opts []workspace.Option) (*RepairReport, error) {
	rep := &RepairReport{Workspace: dir}
	removed := 0
	for _, f := range derivedFiles(dir) {
		if os.Remove(f) == nil {
			removed++
		}
	}
	if removed > 0 {
		rep.did("removed %d caches; the next open makes them again from the store", removed)
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "vectors", "*.vec"))
	for _, l := range logs {
		if in, err := vectors.Inspect(l); err != nil {
			aside := l + ".damaged"
			if os.Rename(l, aside) == nil {
				rep.did("set %s aside as %s (%v); its vectors are made again", filepath.Base(l), filepath.Base(aside), err)
			}
		} else if in.Intact < in.Size {
			rep.did("cut the damaged end of %s (%d bytes from byte %d) off", filepath.Base(l), in.Size-in.Intact, in.Intact)
		}
	}
	w, err := workspace.Open(ctx, dir, opts...) // cuts a vector log's damaged end
	if err != nil {
		return nil, fmt.Errorf("repair %s: %w", dir, err)
	}
	defer func() {
		if w != nil {
			w.Close()
		}
	}()
	if err := repairGraph(ctx, w, c, rep); err != nil {
		return nil, fmt.Errorf("repair %s: %w", dir, err)
	}
	w.Texts().SweepTemps()
	graphdb.SweepUnfinished(filepath.Join(dir, storage.GraphDir))
	repairWatched(dir, rep)
	err = w.Close()
	w = nil
	if err != nil {
		return nil, fmt.Errorf("repair %s: %w", dir, err)
	}
	if rep.After, err = Doctor(ctx, dir); err != nil {
		return nil, err
	}
	return rep, nil
}

// repairGraph restores texts, drops summaries whose texts are gone, counts
// the facts again and makes missing vectors.
func repairGraph(ctx context.Context, w *workspace.Workspace, c *Checkup, rep *RepairReport) error {
	w.Lock()
	defer w.Unlock()
	ix, err := w.Index(ctx)
	if err != nil {
		return err
	}
	// Texts, from their source files.
	var dropSummaries []string
	bySource := map[string]map[string]string{}
	restored := 0
	for _, lt := range c.LostTexts {
		n := ix.Nodes[lt.Node]
		switch {
		case n == nil:
		case lt.Summary:
			dropSummaries = append(dropSummaries, n.ID)
		case lt.Source != "":
			d := ix.Docs[n.DocID]
			texts, ok := bySource[d.ID]
			if !ok {
				texts, _ = sourceSections(d)
				bySource[d.ID] = texts
			}
			if text, ok := texts[n.ContentHash]; ok {
				os.Remove(w.Texts().Path(n.ContentHash)) // a damaged one
				if _, err := w.Texts().Write(n.ContentHash, text); err != nil {
					return err
				}
				restored++
				continue
			}
			rep.lost("%s (%s): its text is gone and its file no longer holds it; ingest the file again", n.ID, n.Ref)
		default:
			rep.lost("%s (%s): its text is gone and its file changed or is gone; ingest the file again", n.ID, n.Ref)
		}
	}
	if restored > 0 {
		rep.did("read %d sections' texts back from their source files", restored)
	}
	var write graphdb.Write
	removed := map[string]bool{}
	for _, id := range dropSummaries {
		write.Remove = append(write.Remove, id)
		removed[id] = true
		ix.DropNode(id)
	}
	if len(dropSummaries) > 0 {
		rep.did("dropped %d summaries whose texts were gone (made again when a question needs them)", len(dropSummaries))
	}
	superseded := 0
	for _, id := range c.Superseded {
		if ix.Nodes[id] != nil { // nil: dropped above, or gone meanwhile
			write.Remove = append(write.Remove, id)
			removed[id] = true
			ix.DropNode(id)
			superseded++
		}
	}
	if superseded > 0 {
		rep.did("deleted %d summaries that newer ones of the same sections replaced", superseded)
	}
	// Older copies of attributes: a touch of the node leaves one.
	for _, id := range c.Repeated {
		if n := ix.Nodes[id]; n != nil && !removed[id] {
			write.Touch = append(write.Touch, *n)
		} else if d := ix.Docs[id]; d != nil {
			write.TouchDocs = append(write.TouchDocs, *d)
		}
	}
	if k := len(write.Touch) + len(write.TouchDocs); k > 0 {
		rep.did("left one copy of the attributes of %d nodes the store held more than once", k)
	}
	facts := ix.Meta(w.Meta().Embedder)
	recount := facts.Documents != w.Meta().Documents || facts.ContentNodes != w.Meta().ContentNodes || facts.ConceptNodes != w.Meta().ConceptNodes ||
		facts.Edges != w.Meta().Edges || facts.Tokens != w.Meta().Tokens
	if recount || len(write.Remove) > 0 || len(write.Touch)+len(write.TouchDocs) > 0 {
		write.Meta = facts
		meta, err := w.Apply(ctx, write)
		if err != nil {
			return err
		}
		w.SetMeta(meta)
		w.Invalidate()
		if recount {
			rep.did("counted the workspace facts again from the store")
		}
		if ix, err = w.Index(ctx); err != nil {
			return err
		}
	}
	// Texts no node names: what removed or changed documents, replaced
	// summaries and stopped ingests left. Only as many as the doctor
	// counted, with the texts of the summaries deleted above: more would
	// mean the index read now lacks nodes the store holds.
	if c.Store == "ok" && c.UnnamedTexts+superseded > 0 {
		named := make(map[string]bool, len(ix.Nodes))
		for _, n := range ix.Nodes {
			named[n.ContentHash] = true
		}
		n, bytes, err := w.Texts().Forget(named, c.UnnamedTexts+superseded)
		switch {
		case errors.Is(err, storage.ErrMoreUnnamed):
			rep.did("left the stored texts alone: %v (run loom doctor again)", err)
		case err != nil:
			return err
		case n > 0:
			rep.did("deleted %d stored texts (%s) that no section or summary named", n, ingest.HumanBytes(bytes))
		}
	}
	// Vectors the current embedder's log lacks.
	e, err := w.Embedder(ctx)
	if err != nil {
		return err
	}
	if w.Meta().Embedder != "" && w.Meta().Embedder != e.ID() {
		rep.lost("vectors were not checked: the workspace uses %s, and this repair embeds with %s (run loom repair with the workspace's embedder)", w.Meta().Embedder, e.ID())
		return nil
	}
	var texts []string
	var keys []string
	for _, n := range ix.Nodes {
		if !index.Searchable(n) || w.Vectors().Has(index.ContentKey(n.ContentHash)) {
			continue
		}
		t, err := w.Content(n.ContentHash)
		if err != nil {
			continue // its text is lost too: reported above
		}
		texts = append(texts, ingest.EmbedText(n.HeadingPath, t))
		keys = append(keys, index.ContentKey(n.ContentHash))
	}
	if len(texts) > 0 {
		vecs, err := e.Embed(ctx, texts)
		if err != nil {
			return fmt.Errorf("embed with %s: %w", e.ID(), err)
		}
		for i, k := range keys {
			if err := w.Vectors().Put(k, vecs[i]); err != nil {
				return err
			}
		}
	}
	concepts := 0
	for _, cn := range ix.Concepts {
		if w.Vectors().Has(index.ConceptKey(cn.ID)) {
			continue
		}
		seed := ix.Nodes[cn.Seed]
		if seed == nil {
			continue
		}
		if v, ok := w.Vectors().Get(index.ContentKey(seed.ContentHash)); ok {
			if err := w.Vectors().Put(index.ConceptKey(cn.ID), v); err != nil {
				return err
			}
			concepts++
		}
	}
	if len(texts)+concepts > 0 {
		if err := w.Vectors().Flush(); err != nil {
			return err
		}
		w.Invalidate() // the linker and the rows read the vectors again
		rep.did("made %d missing vectors with %s", len(texts)+concepts, e.ID())
	}
	return nil
}

// repairWatched writes the list of watched folders again when it cannot
// be read whole, with the folders that can be read from it (none, when
// the file cannot be read at all).
func repairWatched(dir string, rep *RepairReport) {
	folders, err := watch.ReadList(dir)
	if err == nil {
		return
	}
	if werr := watch.WriteList(dir, folders); werr != nil {
		rep.lost("%s could not be written again (%v); the desktop app watches no folder of it until it is", watch.ListFile, werr)
		return
	}
	rep.did("wrote %s again with the %s that could be read from it (%v)", watch.ListFile, plural(len(folders), "folder", "folders"), err)
}

// salvage reads what it can of a damaged (or missing) graph — from the
// store around its damage, or from the index cache when that is as new or
// newer — into a new workspace.
func salvage(ctx context.Context, dir string, o RepairOptions, opts []workspace.Option) (*RepairReport, error) {
	out := o.Out
	if out == "" {
		out = strings.TrimRight(dir, `/\`) + ".repaired"
	}
	if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
		return nil, fmt.Errorf("repair: %s is not empty; give another place for the salvaged workspace (--out)", out)
	}
	rep := &RepairReport{Workspace: out, Salvaged: true}
	var (
		snap   *graphdb.Snapshot
		source string
	)
	stored, srep, serr := graphdb.Salvage(filepath.Join(dir, storage.GraphDir))
	cached, cachedConcepts := index.LoadGraphCache(filepath.Join(dir, "index.cache"), index.AnyGeneration)
	switch {
	case cached != nil && (serr != nil || !srep.HasMeta || cached.Saved.Generation >= stored.Meta.Generation):
		snap = cached.Snapshot(cached.Saved)
		snap.Concepts = cachedConcepts
		source = fmt.Sprintf("the index cache (a whole copy of the graph at generation %d)", cached.Saved.Generation)
		if serr == nil && srep.HasMeta {
			source += fmt.Sprintf("; the store, read around its damage, was at generation %d", stored.Meta.Generation)
		}
	case serr == nil:
		snap = stored
		source = fmt.Sprintf("the graph store, read around its damage (%d quads read, %d lost", srep.Quads, srep.Lost.Quads)
		if srep.BadPages > 0 {
			source += fmt.Sprintf(", %d pages unreadable", srep.BadPages)
		}
		source += ")"
		if cached != nil {
			if diff := graphDifference(cached.Snapshot(cached.Saved), stored); diff != "" {
				source += fmt.Sprintf("; the older index cache (generation %d) differs from it: %s", cached.Saved.Generation, diff)
			}
		}
	default:
		return nil, fmt.Errorf("repair %s: nothing of the graph can be read (%v) and there is no readable index cache: ingest your files again into a new workspace", dir, serr)
	}
	rep.did("read the graph from %s", source)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("repair: %w", err)
	}
	if workspace.GraphKindOf(opts...) == storage.BoltGraph { // an empty store first: the files copied next need one
		if err := graphdb.CreateBolt(filepath.Join(out, storage.GraphDir)); err != nil {
			return nil, fmt.Errorf("repair: %w", err)
		}
	}
	copied, err := copyWorkspaceFiles(dir, out)
	if err != nil {
		return nil, fmt.Errorf("repair: copy the workspace's files to %s: %w", out, err)
	}
	rep.did("copied %d files (texts, vectors, summaries, settings, conversations) to %s", copied, out)
	repairWatched(out, rep)

	g, err := salvagedGraph(snap, out, rep)
	if err != nil {
		return nil, err
	}
	w, err := workspace.Open(ctx, out, opts...)
	if err != nil {
		return nil, fmt.Errorf("repair: open %s: %w", out, err)
	}
	if err := library.New(w).ImportGraph(ctx, g); err != nil {
		w.Close()
		return nil, fmt.Errorf("repair: rebuild the graph in %s: %w", out, err)
	}
	st, _ := w.Stats(ctx)
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("repair: %w", err)
	}
	rep.did("rebuilt the graph in %s: %d documents, %d sections, %d concepts", out, st.Documents, st.ContentNodes, st.ConceptNodes)
	if o.Replace {
		aside := ""
		for i := 1; ; i++ {
			aside = fmt.Sprintf("%s.damaged-%d", strings.TrimRight(dir, `/\`), i)
			if _, err := os.Stat(aside); errors.Is(err, os.ErrNotExist) {
				break
			}
		}
		if err := os.Rename(dir, aside); err != nil {
			return nil, fmt.Errorf("repair: keep the damaged workspace as %s: %w", aside, err)
		}
		if err := os.Rename(out, dir); err != nil {
			return nil, fmt.Errorf("repair: put %s in place of %s (the damaged one is %s): %w", out, dir, aside, err)
		}
		rep.DamagedCopy, rep.Workspace = aside, dir
		rep.did("put the salvaged workspace in %s and kept the damaged one as %s", dir, aside)
	}
	if rep.After, err = Doctor(ctx, rep.Workspace); err != nil {
		return nil, err
	}
	return rep, nil
}

// salvagedGraph turns what was salvaged into a graph.json ImportGraph
// takes: sections whose documents were lost, edges to things that were
// lost, and sections whose texts cannot be had (from the copied texts or
// their source files) are left out, and said so.
func salvagedGraph(snap *graphdb.Snapshot, out string, rep *RepairReport) (*graphdb.GraphJSON, error) {
	texts := storage.NewTexts(out, false)
	defer texts.Close()
	docs := map[string]*model.Document{}
	for i := range snap.Documents {
		docs[snap.Documents[i].ID] = &snap.Documents[i]
	}
	g := &graphdb.GraphJSON{Version: graphdb.GraphJSONVersion, Meta: snap.Meta, Documents: snap.Documents, ConceptNodes: snap.Concepts}
	keep := map[string]bool{}
	for id := range docs {
		keep[id] = true
	}
	for _, c := range snap.Concepts {
		keep[c.ID] = true
	}
	orphans, noText, summaries := 0, 0, 0
	bySource := map[string]map[string]string{}
	for _, n := range snap.Nodes {
		d := docs[n.DocID]
		if d == nil {
			orphans++
			continue
		}
		if _, err := texts.Read(n.ContentHash); err != nil {
			if n.Kind == model.KindAnalysis {
				summaries++
				continue
			}
			fromFile, ok := bySource[d.ID]
			if !ok {
				fromFile, _ = sourceSections(d)
				bySource[d.ID] = fromFile
			}
			text, ok := fromFile[n.ContentHash]
			if !ok {
				noText++
				rep.lost("%s (%s): its text is gone; ingest %s again", n.ID, n.Ref, d.Path)
				continue
			}
			os.Remove(texts.Path(n.ContentHash))
			if _, err := texts.Write(n.ContentHash, text); err != nil {
				return nil, fmt.Errorf("repair: %w", err)
			}
			rep.did("read %s's text back from %s", n.ID, library.DocSource(d))
		}
		keep[n.ID] = true
		g.ContentNodes = append(g.ContentNodes, n)
	}
	if orphans > 0 {
		rep.lost("%d sections whose documents could not be read", orphans)
	}
	if summaries > 0 {
		rep.did("left out %d summaries whose texts were gone (made again when needed)", summaries)
	}
	// A document that lost sections is incomplete: say which.
	have := map[string]int{}
	for _, n := range g.ContentNodes {
		have[n.DocID]++
	}
	var emptied []string
	for id, d := range docs {
		if have[id] == 0 {
			emptied = append(emptied, d.Path)
		}
	}
	sort.Strings(emptied)
	for _, p := range emptied {
		rep.lost("document %s has no section left; ingest it again", p)
	}
	dropped := 0
	for _, e := range snap.Edges {
		if !keep[e.From] || (e.Kind != model.EdgeLinks && !e.Kind.SymbolEdge() && !keep[e.To]) {
			dropped++
			continue
		}
		g.Edges = append(g.Edges, e)
	}
	if dropped > 0 {
		rep.did("left out %d edges to what was lost", dropped)
	}
	// Concepts no section is about any more go too.
	about := map[string]bool{}
	for _, e := range g.Edges {
		if e.Kind == model.EdgeAbout {
			about[e.To] = true
		}
	}
	var concepts []model.Concept
	for _, c := range g.ConceptNodes {
		if about[c.ID] && keep[c.Seed] {
			concepts = append(concepts, c)
		} else {
			delete(keep, c.ID)
		}
	}
	g.ConceptNodes = concepts
	edges := g.Edges[:0]
	for _, e := range g.Edges {
		if keep[e.From] && (e.Kind == model.EdgeLinks || e.Kind.SymbolEdge() || keep[e.To]) {
			edges = append(edges, e)
		}
	}
	g.Edges = edges
	for i := range g.ContentNodes {
		n := &g.ContentNodes[i]
		if n.Parent != "" && !keep[n.Parent] {
			n.Parent = ""
		}
		if n.Source != "" && !keep[n.Source] {
			n.Source = ""
		}
	}
	if err := g.Validate(); err != nil {
		return nil, fmt.Errorf("repair: the salvaged graph is not whole: %w", err)
	}
	return g, nil
}

// copyWorkspaceFiles copies what a workspace holds besides its graph and
// caches: texts (hard-linked where the file system allows: they never
// change), vector logs, summaries, settings, conversations, uploads.
func copyWorkspaceFiles(dir, out string) (int, error) {
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		top := strings.Split(filepath.ToSlash(rel), "/")[0]
		switch {
		case rel == ".":
			return nil
		case top == storage.GraphDir || strings.HasPrefix(top, storage.GraphDir+".new-") || top == storage.SnapshotFile:
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		// repos.json is the commits re-ingests read from (a cache: without
		// it the next ingest reads every file).
		case rel == "index.cache" || rel == "search.cache" || rel == "repos.json" || rel == storage.HolderFile || strings.HasSuffix(rel, ".tmp") ||
			strings.HasSuffix(rel, ".rows") || strings.HasSuffix(rel, ".sketch"):
			return nil
		}
		target := filepath.Join(out, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if top == "content" && os.Link(p, target) == nil {
			n++
			return nil
		}
		n++
		return copyFile(p, target)
	})
	return n, err
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
