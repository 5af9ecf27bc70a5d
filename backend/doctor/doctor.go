// Package doctor checks a workspace and mends it: Doctor reads every part
// (settings, the graph store page by page and quad by quad, the caches,
// the list of watched folders, the vector logs, the stored texts,
// leftovers of interrupted writes)
// without writing anything; Repair mends what the checkup found in place,
// or salvages a damaged store into a new workspace.
//
//	c, err := doctor.Doctor(ctx, dir)
//	rep, err := doctor.Repair(ctx, dir, doctor.RepairOptions{})
package doctor

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/library"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/backend/storage"
	"github.com/loomwork/loom/backend/tokens"
	"github.com/loomwork/loom/backend/vectors"
	"github.com/loomwork/loom/backend/watch"
	"github.com/loomwork/loom/backend/workspace"
	"github.com/loomwork/loom/graphdb"
)

// What `loom doctor` checks and `loom repair` mends. A workspace holds
// three kinds of files: the graph store (the source of truth), the stored
// texts and vectors (what the graph names), and files derived from those
// (index.cache, search.cache, rows and sketch caches), which the next open
// rebuilds when they are missing. Doctor reads everything without writing
// anything and says, for each part, whether it is sound and what repair
// would do; it works on a store too damaged to open.

// Finding is one part of a workspace as the doctor found it.
type Finding struct {
	// Part names what was checked: "graph store", "index cache", ….
	Part string `json:"part"`
	// Status is ok, note (nothing wrong, worth knowing) or problem.
	Status string `json:"status"`
	Detail string `json:"detail"`
	// Repair says what `loom repair` does about it ("" when nothing).
	Repair string `json:"repair,omitempty"`
}

// Finding statuses.
const (
	StatusOK      = "ok"
	StatusNote    = "note"
	StatusProblem = "problem"
)

// Checkup is everything the doctor found.
type Checkup struct {
	Workspace string    `json:"workspace"`
	Findings  []Finding `json:"findings"`
	// Store says how the graph store read: "ok", "in use", "damaged",
	// "missing" or "unfinished".
	Store string `json:"store"`
	// Lost texts: sections whose stored text is missing or damaged, and
	// whether their source file can give it back.
	LostTexts []LostText `json:"lost_texts,omitempty"`
	// Repeated are the nodes (and documents) whose attributes the store
	// holds more than once (graphdb.Snapshot.RepeatedIDs): repair leaves
	// one copy of each.
	Repeated []string `json:"repeated,omitempty"`
	// Superseded are summaries and essences a newer one of the same
	// section and level replaced (made by another method, or by an older
	// version of Loom's), left in the store by Loom before 2026-11-29: only
	// the newest is read; repair deletes the others.
	Superseded []string `json:"superseded,omitempty"`
	// UnnamedTexts counts the stored texts no section or summary names any
	// more (of documents removed or changed, of summaries replaced, of an
	// ingest stopped before its commit): repair deletes them.
	UnnamedTexts int `json:"unnamed_texts,omitempty"`
}

// LostText is a section whose stored text cannot be read.
type LostText struct {
	Node     string `json:"node"`
	Ref      string `json:"reference"`
	Document string `json:"document"`
	Problem  string `json:"problem"`
	// Source is the file the section came from, when it still holds the
	// same version (repair reads the text back from it).
	Source string `json:"source,omitempty"`
	// Summary: the section is a summary or essence a question made (made
	// again when needed).
	Summary bool `json:"summary,omitempty"`
}

// Problems counts the findings that are problems.
func (c *Checkup) Problems() int {
	n := 0
	for _, f := range c.Findings {
		if f.Status == StatusProblem {
			n++
		}
	}
	return n
}

func (c *Checkup) add(part, status, detail, repair string) {
	c.Findings = append(c.Findings, Finding{Part: part, Status: status, Detail: detail, Repair: repair})
}

// Doctor checks the workspace in dir and writes nothing.
//
// opts say which graph store the workspace keeps (WithGraphStore); the
// rest of them do not matter here.
func Doctor(ctx context.Context, dir string, opts ...workspace.Option) (*Checkup, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("doctor: %s is not a workspace folder", dir)
	}
	c := &Checkup{Workspace: dir}
	if _, err := assemble.LoadConfig(filepath.Join(dir, workspace.ConfigFile)); err != nil {
		c.add("settings", StatusProblem, err.Error(), "")
	} else {
		c.add("settings", StatusOK, workspace.ConfigFile+" reads", "")
	}
	snap, generation := c.checkStore(ctx, dir, workspace.GraphKindOf(opts...))
	c.checkIndexCache(dir, snap, generation)
	c.checkSearchCache(dir, generation)
	c.checkWatched(dir)
	if snap == nil {
		return c, nil
	}
	c.checkVectors(dir, snap)
	c.checkSummaries(snap)
	c.checkTexts(dir, snap)
	c.checkLeftovers(dir)
	return c, nil
}

// checkSummaries notes the summaries a newer one of the same section and
// level replaced (index.Search reads the newest of them).
func (c *Checkup) checkSummaries(snap *graphdb.Snapshot) {
	newest := map[[2]string]*model.ContentNode{}
	var all []*model.ContentNode
	for i := range snap.Nodes {
		n := &snap.Nodes[i]
		if n.Kind != model.KindAnalysis || n.Source == "" {
			continue
		}
		all = append(all, n)
		k := [2]string{n.Source, n.Level}
		if old := newest[k]; old == nil || index.Later(n, old) {
			newest[k] = n
		}
	}
	for _, n := range all {
		if newest[[2]string{n.Source, n.Level}] != n {
			c.Superseded = append(c.Superseded, n.ID)
		}
	}
	if len(c.Superseded) == 0 {
		return
	}
	slices.Sort(c.Superseded)
	c.add("summaries", StatusNote, fmt.Sprintf("%d summaries that newer ones of the same sections replaced are still stored (Loom before 2026-11-29 kept them); only the newest are read", len(c.Superseded)),
		"deletes them")
}

// checkStore reads the graph store: its pages, then its quads. It returns
// the graph when it could read it whole (or, beside a writer, the graph of
// the index that writer saved) and the generation it is at (-1: unknown).
func (c *Checkup) checkStore(ctx context.Context, dir string, kind storage.GraphKind) (*graphdb.Snapshot, int64) {
	const part = "graph store"
	if kind == storage.SnapshotGraph {
		s, err := graphdb.OpenSnapshot(filepath.Join(dir, storage.SnapshotFile))
		if err != nil {
			c.Store = "damaged"
			c.add(part, StatusProblem, err.Error(), "salvages what the index cache holds into a new workspace")
			return nil, -1
		}
		defer s.Close()
		snap, err := s.Load(ctx)
		if err != nil {
			c.Store = "damaged"
			c.add(part, StatusProblem, err.Error(), "")
			return nil, -1
		}
		c.Store = "ok"
		c.add(part, StatusOK, fmt.Sprintf("%d documents, %s, %d concepts at generation %d", len(snap.Documents), sections(snap), len(snap.Concepts), snap.Meta.Generation), "")
		c.repeated(part, snap)
		c.olderReaders(part, snap)
		return snap, snap.Meta.Generation
	}
	gdir := filepath.Join(dir, storage.GraphDir)
	// salvage says what repair would read of a damaged store, and returns
	// it for the other checks.
	salvage := func(why string) (*graphdb.Snapshot, int64) {
		c.Store = "damaged"
		snap, rep, err := graphdb.Salvage(gdir)
		if err != nil {
			c.add(part, StatusProblem, why, "nothing of the graph can be read from it; repair rebuilds it from the index cache if that is readable")
			return nil, -1
		}
		c.add(part, StatusProblem, why, fmt.Sprintf("salvages %d documents, %d sections and %d concepts from it (%d quads lost) into a new workspace; the checks below are of what it salvages",
			len(snap.Documents), len(snap.Nodes), len(snap.Concepts), rep.Lost.Quads))
		if !rep.HasMeta {
			return snap, -1
		}
		return snap, snap.Meta.Generation
	}
	s, err := graphdb.OpenBolt(gdir, graphdb.BoltOptions{ReadOnly: true})
	var unfinished *graphdb.UnfinishedError
	var damaged *graphdb.DamagedError
	switch {
	case errors.Is(err, graphdb.ErrInUse):
		c.Store = "in use"
		ix, _ := index.LoadGraphCache(filepath.Join(dir, "index.cache"), index.AnyGeneration)
		if ix == nil {
			c.add(part, StatusNote, "another Loom process is writing it, so it was not read, and there is no saved index to check the rest against; close that process and run doctor again", "")
			return nil, -1
		}
		c.add(part, StatusNote, fmt.Sprintf("another Loom process is writing it, so it was not read; the rest is checked against the index that process saved (generation %d)", ix.Saved.Generation), "")
		return ix.Snapshot(ix.Saved), ix.Saved.Generation
	case errors.Is(err, graphdb.ErrNoGraph):
		c.Store = "missing"
		if what := storage.WorkspaceData(dir); what != "" {
			c.add(part, StatusProblem, "it is missing, yet the workspace holds "+what, "rebuilds it from the index cache into a new workspace")
		} else {
			c.add(part, StatusNote, "none yet: the workspace was never written", "")
		}
		return nil, -1
	case errors.As(err, &unfinished):
		c.Store = "unfinished"
		if what := storage.WorkspaceData(dir); what != "" {
			c.add(part, StatusProblem, unfinished.Error()+", yet the workspace holds "+what, "rebuilds it from the index cache into a new workspace")
		} else {
			c.add(part, StatusNote, unfinished.Error()+"; the next open makes it again (nothing depends on it)", "")
		}
		return nil, -1
	case errors.As(err, &damaged):
		return salvage(damaged.Error())
	case err != nil:
		c.Store = "damaged"
		c.add(part, StatusProblem, err.Error(), "")
		return nil, -1
	}
	defer s.Close()
	pages, rep, perr := graphdb.CheckPages(gdir)
	if perr == nil && rep.BadPages > 0 {
		return salvage(fmt.Sprintf("%d of its pages cannot be read: %s", rep.BadPages, strings.Join(rep.Problems, "; ")))
	}
	snap, err := s.Load(ctx)
	if err != nil {
		return salvage(err.Error())
	}
	c.Store = "ok"
	c.add(part, StatusOK, fmt.Sprintf("%d pages read; %d documents, %s, %d concepts at generation %d",
		pages, len(snap.Documents), sections(snap), len(snap.Concepts), snap.Meta.Generation), "")
	c.repeated(part, snap)
	c.olderReaders(part, snap)
	// The workspace facts (what stats show) against what the store holds.
	ix := index.FromSnapshot(snap)
	facts := ix.Meta(snap.Meta.Embedder)
	m := snap.Meta
	if m.Documents != facts.Documents || m.ContentNodes != facts.ContentNodes || m.ConceptNodes != facts.ConceptNodes || m.Edges != facts.Edges || m.Tokens != facts.Tokens {
		c.add("workspace facts", StatusProblem, fmt.Sprintf("they say %d documents, %d sections, %d concepts, %d edges, %d tokens; the store holds %d, %d, %d, %d, %d",
			m.Documents, m.ContentNodes, m.ConceptNodes, m.Edges, m.Tokens, facts.Documents, facts.ContentNodes, facts.ConceptNodes, facts.Edges, facts.Tokens),
			"counts them again from the store")
	} else {
		c.add("workspace facts", StatusOK, "they agree with the store", "")
	}
	return snap, snap.Meta.Generation
}

// checkIndexCache compares index.cache with the store it was saved from.
func (c *Checkup) checkIndexCache(dir string, snap *graphdb.Snapshot, generation int64) {
	const part = "index cache"
	path := filepath.Join(dir, "index.cache")
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		c.add(part, StatusNote, "none: the next open reads the graph store and saves one", "")
		return
	}
	ix, _ := index.LoadGraphCache(path, index.AnyGeneration)
	switch {
	case ix == nil:
		c.add(part, StatusProblem, "index.cache is damaged (its checksum or layout is wrong); it is not used", "removes it; the next open makes it again")
	case generation >= 0 && ix.Saved.Generation != generation:
		c.add(part, StatusNote, fmt.Sprintf("saved at generation %d, the store is at %d: it is not used, and is made again on the next open", ix.Saved.Generation, generation), "removes it")
	case snap != nil:
		cached := ix.Snapshot(ix.Saved)
		if diff := graphDifference(snap, cached); diff != "" {
			c.add(part, StatusProblem, "it is of the store's generation but holds another graph: "+diff, "removes it; the next open makes it again from the store")
			return
		}
		c.add(part, StatusOK, fmt.Sprintf("current (generation %d) and the same graph as the store", generation), "")
	default:
		c.add(part, StatusOK, fmt.Sprintf("readable (generation %d)", ix.Saved.Generation), "")
	}
}

// graphDifference names how two graphs differ in documents and sections
// ("" when they do not).
func graphDifference(store, cached *graphdb.Snapshot) string {
	ids := func(s *graphdb.Snapshot) (map[string]string, map[string]string) {
		docs, nodes := map[string]string{}, map[string]string{}
		for _, d := range s.Documents {
			docs[d.ID] = d.Hash
		}
		for _, n := range s.Nodes {
			nodes[n.ID] = n.ContentHash
		}
		return docs, nodes
	}
	sd, sn := ids(store)
	cd, cn := ids(cached)
	var parts []string
	count := func(what string, a, b map[string]string) {
		only, changed := 0, 0
		for id, h := range b {
			if ah, ok := a[id]; !ok {
				only++
			} else if ah != h {
				changed++
			}
		}
		missing := 0
		for id := range a {
			if _, ok := b[id]; !ok {
				missing++
			}
		}
		if only+changed+missing > 0 {
			parts = append(parts, fmt.Sprintf("%d %s not in the store, %d missing from it, %d different", only, what, missing, changed))
		}
	}
	count("documents", sd, cd)
	count("sections", sn, cn)
	return strings.Join(parts, "; ")
}

// checkSearchCache: the keyword index's cache of the store's generation.
func (c *Checkup) checkSearchCache(dir string, generation int64) {
	const part = "search cache"
	path := filepath.Join(dir, "search.cache")
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		c.add(part, StatusNote, "none: the next question builds the keyword index and saves one", "")
		return
	}
	if generation < 0 {
		c.add(part, StatusNote, "not checked: the store's generation is unknown", "removes it")
		return
	}
	if _, err := index.ReadSearchCache(path, generation); err != nil {
		c.add(part, StatusNote, "stale or damaged: it is not used, and is made again by the next question", "removes it")
		return
	}
	c.add(part, StatusOK, fmt.Sprintf("current (generation %d)", generation), "")
}

// checkWatched reads the desktop app's list of watched folders, when there
// is one, and looks for each folder it names.
func (c *Checkup) checkWatched(dir string) {
	const part = "watched folders"
	path := filepath.Join(dir, watch.ListFile)
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		return
	}
	folders, err := watch.ReadList(dir)
	var damaged *watch.ListError
	switch {
	case errors.As(err, &damaged):
		c.add(part, StatusProblem, fmt.Sprintf("%s %s; %s can be read from it", path, damaged.Problem, plural(len(folders), "folder", "folders")),
			fmt.Sprintf("writes it again with the %s that can be read (add any other again with Add folder…)", plural(len(folders), "folder", "folders")))
	case err != nil:
		c.add(part, StatusProblem, fmt.Sprintf("%s cannot be read (%v)", path, err), "writes it again, empty: add the watched folders again with Add folder…")
		return
	}
	var gone []string
	for _, f := range folders {
		if info, err := os.Stat(f); err != nil {
			gone = append(gone, f+" ("+describeMissing(err)+")")
		} else if !info.IsDir() {
			gone = append(gone, f+" (a file, not a folder)")
		}
	}
	switch {
	case len(gone) > 0:
		which := fmt.Sprintf("%d of the %d watched folders cannot", len(gone), len(folders))
		switch {
		case len(folders) == 1:
			which = "the watched folder cannot"
		case len(gone) == len(folders):
			which = fmt.Sprintf("none of the %d watched folders can", len(folders))
		}
		c.add(part, StatusNote, fmt.Sprintf("%s be watched: %s. The desktop app shows such a folder in error: Sync now watches it again once it is back, Stop watching drops it",
			which, strings.Join(gone, "; ")), "")
	case err == nil:
		c.add(part, StatusOK, fmt.Sprintf("%s names %s, all there", watch.ListFile, plural(len(folders), "folder", "folders")), "")
	}
}

func describeMissing(err error) string {
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "no longer exists"
	case errors.Is(err, os.ErrPermission):
		return "cannot be read: permission denied"
	}
	return err.Error()
}

// sections counts a snapshot's sections and, apart, the summaries made of
// them (analysis nodes): "7 sections and 1 summary".
func sections(snap *graphdb.Snapshot) string {
	summaries := 0
	for i := range snap.Nodes {
		if !index.Searchable(&snap.Nodes[i]) {
			summaries++
		}
	}
	out := plural(len(snap.Nodes)-summaries, "section", "sections")
	if summaries > 0 {
		out += " and " + plural(summaries, "summary", "summaries")
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// checkVectors checks each embedder's vector log, and that the sections
// and concepts have vectors from the embedder the workspace uses.
func (c *Checkup) checkVectors(dir string, snap *graphdb.Snapshot) {
	logs, _ := filepath.Glob(filepath.Join(dir, "vectors", "*.vec"))
	sort.Strings(logs)
	current := filepath.Join(dir, "vectors", workspace.VectorLogName(snap.Meta.Embedder))
	for _, path := range logs {
		part := "vectors " + strings.TrimSuffix(filepath.Base(path), ".vec")
		in, err := vectors.Inspect(path)
		switch {
		case err != nil:
			c.add(part, StatusProblem, fmt.Sprintf("%s cannot be read (%v)", path, err), "sets it aside and embeds every section again")
			continue
		case in.Intact < in.Size:
			c.add(part, StatusProblem, fmt.Sprintf("%d vectors intact; from byte %d on (%d bytes) the file is torn or damaged", in.Records, in.Intact, in.Size-in.Intact),
				"cuts the damaged end off and embeds again what it held")
		default:
			c.add(part, StatusOK, fmt.Sprintf("%d vectors of %d dimensions, every record's checksum holds", in.Records, in.Dim), "")
		}
		if path != current {
			continue
		}
		missing := 0
		for i := range snap.Nodes {
			if n := &snap.Nodes[i]; index.Searchable(n) && !in.Keys[index.ContentKey(n.ContentHash)] {
				missing++
			}
		}
		for _, cn := range snap.Concepts {
			if !in.Keys[index.ConceptKey(cn.ID)] {
				missing++
			}
		}
		if missing > 0 {
			c.add(part, StatusProblem, fmt.Sprintf("%d sections or concepts have no vector from %s: vector search cannot find them", missing, snap.Meta.Embedder), "embeds them again")
		}
	}
	if snap.Meta.Embedder != "" && len(snap.Nodes) > 0 {
		if _, err := os.Stat(current); errors.Is(err, os.ErrNotExist) {
			c.add("vectors", StatusProblem, fmt.Sprintf("the vectors of %s, the embedder the workspace uses, are missing", snap.Meta.Embedder), "embeds every section again")
		}
	}
}

// checkTexts reads every section's stored text and checks it against its
// hash.
func (c *Checkup) checkTexts(dir string, snap *graphdb.Snapshot) {
	texts := storage.NewTexts(dir, true)
	defer texts.Close()
	docs := map[string]*model.Document{}
	for i := range snap.Documents {
		docs[snap.Documents[i].ID] = &snap.Documents[i]
	}
	sourceHolds := map[string]bool{} // document id → its file is the same version
	for _, n := range snap.Nodes {
		_, err := texts.Read(n.ContentHash)
		if err == nil {
			continue
		}
		lt := LostText{Node: n.ID, Ref: n.Ref, Document: n.DocID, Problem: err.Error(), Summary: n.Kind == model.KindAnalysis}
		var te *storage.TextError
		if errors.As(err, &te) {
			lt.Problem = te.File + " " + te.Problem
		}
		if d := docs[n.DocID]; d != nil && !lt.Summary {
			if _, known := sourceHolds[d.ID]; !known {
				_, sourceHolds[d.ID] = sourceSections(d)
			}
			if sourceHolds[d.ID] {
				lt.Source = library.DocSource(d)
			}
		}
		c.LostTexts = append(c.LostTexts, lt)
	}
	c.unnamedTexts(texts, snap)
	if len(c.LostTexts) == 0 {
		c.add("texts", StatusOK, fmt.Sprintf("all %d sections' texts are there and match their hashes", len(snap.Nodes)), "")
		return
	}
	fromSource, summaries := 0, 0
	for _, lt := range c.LostTexts {
		switch {
		case lt.Source != "":
			fromSource++
		case lt.Summary:
			summaries++
		}
	}
	repair := fmt.Sprintf("reads %d of them back from their source files", fromSource)
	if summaries > 0 {
		repair += fmt.Sprintf(", drops %d summaries (made again when needed)", summaries)
	}
	if rest := len(c.LostTexts) - fromSource - summaries; rest > 0 {
		repair += fmt.Sprintf("; %d cannot be restored (their files changed or are gone: ingest them again)", rest)
	}
	c.add("texts", StatusProblem, fmt.Sprintf("%d of %d sections' texts are missing or damaged (questions leave those sections out)", len(c.LostTexts), len(snap.Nodes)), repair)
}

// unnamedTexts notes the stored texts that no node names (those of the
// summaries repair deletes counted among them).
func (c *Checkup) unnamedTexts(texts *storage.Texts, snap *graphdb.Snapshot) {
	named := make(map[string]bool, len(snap.Nodes))
	for _, n := range snap.Nodes {
		if _, gone := slices.BinarySearch(c.Superseded, n.ID); !gone {
			named[n.ContentHash] = true
		}
	}
	n, bytes, err := texts.Unnamed(named)
	if err != nil {
		c.add("stored texts", StatusNote, "could not list them: "+err.Error(), "")
		return
	}
	if n == 0 {
		return
	}
	c.UnnamedTexts = n
	c.add("stored texts", StatusNote, fmt.Sprintf("%d stored texts (%s) that no section or summary names any more: of documents removed or changed, of summaries replaced", n, ingest.HumanBytes(bytes)),
		"deletes them")
}

// sourceSections reads a document's source file again and returns its
// sections' texts by hash, when the file still holds the version that was
// ingested (false otherwise).
func sourceSections(d *model.Document) (map[string]string, bool) {
	src := library.DocSource(d)
	st, err := os.Stat(src)
	if err != nil {
		return nil, false
	}
	f := ingest.File{Abs: src, Path: d.Path, Collection: d.Collection, Size: st.Size()}
	if ingest.Format(d.Format) == ingest.FormatBEIR {
		f.Path = filepath.Base(src)
	}
	opts := ingest.Options{CountTokens: tokens.Default().Count}
	data, err := ingest.ReadFile(f, opts)
	if err != nil {
		return nil, false
	}
	docs, err := ingest.Parse(f.Abs, f.Path, f.Collection, data, opts)
	if err != nil {
		return nil, false
	}
	for _, pd := range docs {
		if pd.Key != d.Key {
			continue
		}
		if pd.Hash != d.Hash {
			return nil, false
		}
		pd.Chunk(opts)
		texts := map[string]string{}
		for _, sec := range pd.Sections {
			texts[storage.Hash(sec.Text)] = sec.Text
		}
		return texts, true
	}
	return nil, false
}

// olderReaders notes the documents an older reader of their format read
// (model.Document.Reader): the next ingest of their files reads them
// again, so nothing is to mend.
func (c *Checkup) olderReaders(part string, snap *graphdb.Snapshot) {
	n := 0
	formats := map[string]bool{}
	for _, d := range snap.Documents {
		if ingest.ReadByOlderReader(&d) {
			n++
			formats[d.Format] = true
		}
	}
	if n == 0 {
		return
	}
	names := slices.Sorted(maps.Keys(formats))
	c.add(part, StatusNote, fmt.Sprintf("%d documents (%s) were read by an older reader of their format: the next ingest of their files, or a watcher's rescan, reads them again, unchanged or not", n, strings.Join(names, ", ")), "")
}

// checkLeftovers notes what interrupted writes left behind.
func (c *Checkup) checkLeftovers(dir string) {
	tmps, _ := filepath.Glob(filepath.Join(dir, "content", "*", "*.tmp"))
	unfinished, _ := filepath.Glob(filepath.Join(dir, storage.GraphDir+".new-*"))
	if n := len(tmps) + len(unfinished); n > 0 {
		c.add("leftovers", StatusNote, fmt.Sprintf("%d temporary files or folders that interrupted writes left (harmless)", n), "removes them")
	}
}

// repeated notes the older copies of attributes a store holds beside the
// newest (graphdb.Snapshot.Repeated): harmless, since the newest is read.
func (c *Checkup) repeated(part string, snap *graphdb.Snapshot) {
	if snap.Repeated > 0 {
		c.Repeated = snap.RepeatedIDs
		c.add(part, StatusNote, fmt.Sprintf("%d older copies of the attributes of %d nodes are stored beside the newest ones (summaries written again by Loom before 2026-11-29); the newest are read and an export holds one of each", snap.Repeated, len(snap.RepeatedIDs)),
			"leaves one copy of each")
	}
}
