package backend

import (
	"bufio"
	"context"
	"encoding/gob"
	"fmt"
	"os"

	"github.com/loomwork/loom/backend/concepts"
	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/graphdb"
)

// index is the in-memory working index: everything the query path and the
// linker need, built from the graph once and kept in step with every write.
type index struct {
	docs     map[string]*model.Document
	docByKey map[string]string
	docNodes map[string][]string
	nodes    map[string]*model.ContentNode
	concepts map[string]*model.Concept
	// edges by source id
	out        map[string][]model.Edge
	aboutCount map[string]int // content links per concept
	linker     *concepts.Linker
}

func newIndex() *index {
	return &index{docs: map[string]*model.Document{}, docByKey: map[string]string{}, docNodes: map[string][]string{},
		nodes: map[string]*model.ContentNode{}, concepts: map[string]*model.Concept{}, out: map[string][]model.Edge{},
		aboutCount: map[string]int{}}
}

func indexFromSnapshot(s *graphdb.Snapshot) *index {
	ix := newIndex()
	for i := range s.Documents {
		d := s.Documents[i]
		ix.docs[d.ID] = &d
		ix.docByKey[d.Key] = d.ID
	}
	for id, ns := range s.DocNodes {
		ix.docNodes[id] = append([]string(nil), ns...)
	}
	for i := range s.Nodes {
		n := s.Nodes[i]
		ix.nodes[n.ID] = &n
	}
	for i := range s.Concepts {
		c := s.Concepts[i]
		ix.concepts[c.ID] = &c
	}
	for _, e := range s.Edges {
		ix.addEdge(e)
	}
	return ix
}

func (ix *index) addEdge(e model.Edge) {
	ix.out[e.From] = append(ix.out[e.From], e)
	if e.Kind == model.EdgeAbout {
		ix.aboutCount[e.To]++
	}
}

// snapshot turns the index back into the stored shape (for the cache and
// for export), in the store's stable order.
func (ix *index) snapshot(meta model.Meta) *graphdb.Snapshot {
	s := &graphdb.Snapshot{Meta: meta, DocNodes: map[string][]string{}}
	for _, d := range ix.docs {
		s.Documents = append(s.Documents, *d)
	}
	for id, ns := range ix.docNodes {
		s.DocNodes[id] = append([]string(nil), ns...)
	}
	for _, n := range ix.nodes {
		s.Nodes = append(s.Nodes, *n)
	}
	for _, c := range ix.concepts {
		s.Concepts = append(s.Concepts, *c)
	}
	for _, es := range ix.out {
		s.Edges = append(s.Edges, es...)
	}
	s.Sort()
	return s
}

// cacheFile is what index.cache holds: the snapshot of one generation.
type cacheFile struct {
	Generation int64
	Snapshot   *graphdb.Snapshot
}

func (ix *index) saveCache(path string, meta model.Meta) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("save index cache: %w", err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := gob.NewEncoder(bw).Encode(cacheFile{Generation: meta.Generation, Snapshot: ix.snapshot(meta)}); err != nil {
		f.Close()
		return fmt.Errorf("save index cache: %w", err)
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func loadCache(path string, generation int64) *graphdb.Snapshot {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var c cacheFile
	if err := gob.NewDecoder(bufio.NewReaderSize(f, 1<<20)).Decode(&c); err != nil || c.Generation != generation || c.Snapshot == nil {
		return nil
	}
	return c.Snapshot
}

// loadIndex builds the working index: from the cache when it matches the
// store's generation, else by reading the whole graph (and re-caching).
// Callers hold w.mu.
func (w *Workbench) loadIndex(ctx context.Context) (*index, error) {
	if w.index != nil {
		return w.index, nil
	}
	e, err := w.embedder(ctx)
	if err != nil {
		return nil, err
	}
	var snap *graphdb.Snapshot
	if !w.cfg.memory {
		snap = loadCache(w.cachePath(), w.meta.Generation)
	}
	fromStore := snap == nil
	if fromStore {
		if snap, err = w.store.Load(ctx); err != nil {
			return nil, err
		}
	}
	ix := indexFromSnapshot(snap)
	ix.linker = concepts.NewLinker(e.Dim(), w.threshold(e))
	if w.meta.Embedder == "" || w.meta.Embedder == e.ID() {
		for _, c := range snap.Concepts {
			if v, ok := w.vecs.Get(conceptKey(c.ID)); ok {
				ix.linker.Add(c.ID, v)
			}
		}
	}
	w.index = ix
	if fromStore && !w.cfg.memory {
		_ = ix.saveCache(w.cachePath(), w.meta)
	}
	if !w.cfg.memory && w.searchCacheValid() {
		w.cachedGen = w.meta.Generation // both caches match: Close need not rewrite them
	}
	return ix, nil
}

func (w *Workbench) threshold(e embed.Embedder) float64 {
	if w.cfg.threshold > 0 {
		return w.cfg.threshold
	}
	return embed.ConceptThreshold(e.ID())
}

func conceptKey(id string) string   { return "c:" + id }
func contentKey(hash string) string { return "h:" + hash }
