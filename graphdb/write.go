package graphdb

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/quad"

	"github.com/loomwork/loom/backend/crash"
	"github.com/loomwork/loom/backend/model"
)

// ConceptWrite is a new concept with the related-edges it starts with.
type ConceptWrite struct {
	Concept model.Concept
	Related []model.Edge
}

// Write is one all-or-nothing change to the graph: it commits in a single
// Cayley transaction (one bolt transaction), so a process killed during it
// leaves the store as it was before.
type Write struct {
	// Remove lists ids (documents, content nodes, concepts) to delete with
	// every quad that mentions them; a document takes its content nodes
	// with it. Removals apply before additions.
	Remove []string
	// Documents to add (after removing any old version by id in Remove).
	Documents []DocWrite
	// Concepts to add.
	Concepts []ConceptWrite
	// Touch rewrites the attributes of existing content nodes (e.g. last
	// access), keeping their edges.
	Touch []model.ContentNode
	// TouchDocs rewrites the attributes of existing documents (e.g. the
	// collections they were grouped into by hand).
	TouchDocs []model.Document
	// Meta replaces the workspace facts; its Generation is set by Apply.
	Meta model.Meta
}

// Apply commits w and returns the meta as stored (with the new generation).
func (s *Store) Apply(ctx context.Context, w Write) (meta model.Meta, err error) {
	leave, err := s.enter()
	defer leave()
	if err != nil {
		return model.Meta{}, err
	}
	if s.readOnly {
		return model.Meta{}, ErrReadOnly
	}
	defer s.guard(&err)
	if s.kv != nil {
		// One bolt transaction for the whole write, whatever Cayley
		// transactions it takes (boltkv.go); the reads below see it.
		if err := s.kv.begin(); err != nil {
			return model.Meta{}, fmt.Errorf("commit graph write: %w", err)
		}
		defer func() {
			if err != nil {
				s.kv.rollback()
				s.reopenCayley()
				if !strings.Contains(err.Error(), s.path) {
					err = fmt.Errorf("write graph store %s: %w", s.path, err)
				}
			}
		}()
	}
	return s.apply(ctx, w)
}

func (s *Store) apply(ctx context.Context, w Write) (model.Meta, error) {
	var del, add []quad.Quad

	// Removals: the subject side of every id, plus the object side for
	// content nodes and concepts (edges pointing at them from elsewhere).
	removed := map[string]bool{}
	var remove func(id string) error
	remove = func(id string) error {
		if removed[id] {
			return nil
		}
		removed[id] = true
		isDoc := len(id) > 2 && id[:2] == "d-"
		qs, err := s.quadsAbout(ctx, IRI(id), !isDoc)
		if err != nil {
			return err
		}
		for _, q := range qs {
			del = append(del, q)
			if isDoc && q.Predicate == predHas {
				if err := remove(idOf(q.Object)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for _, id := range w.Remove {
		if err := remove(id); err != nil {
			return model.Meta{}, fmt.Errorf("collect quads of %s: %w", id, err)
		}
	}

	for _, d := range w.Documents {
		// A document written again without being removed first (a summary
		// added to it) has its attributes and its nodes' replaced: one
		// copy each, never the old beside the new.
		if !removed[d.Doc.ID] {
			olds, err := s.attrsQuads(ctx, d.Doc.ID)
			if err != nil {
				return model.Meta{}, fmt.Errorf("collect attributes of %s: %w", d.Doc.ID, err)
			}
			del = append(del, olds...)
			for _, n := range d.Nodes {
				if len(olds) == 0 {
					break // a document not stored has no nodes stored
				}
				if removed[n.ID] {
					continue
				}
				old, err := s.attrsQuads(ctx, n.ID)
				if err != nil {
					return model.Meta{}, fmt.Errorf("collect attributes of %s: %w", n.ID, err)
				}
				del = append(del, old...)
			}
		}
		add = append(add, d.quads()...)
	}
	for _, c := range w.Concepts {
		if !removed[c.Concept.ID] { // written again (founded again by the same section): replaced
			olds, err := s.attrsQuads(ctx, c.Concept.ID)
			if err != nil {
				return model.Meta{}, fmt.Errorf("collect attributes of %s: %w", c.Concept.ID, err)
			}
			del = append(del, olds...)
		}
		add = append(add, conceptQuads(c.Concept, c.Related)...)
	}
	for _, n := range w.Touch {
		olds, err := s.attrsQuads(ctx, n.ID)
		if err != nil {
			return model.Meta{}, err
		}
		if len(olds) == 0 {
			return model.Meta{}, fmt.Errorf("update node %s: no such node", n.ID)
		}
		var attrs nodeAttrs // the newest copy's edges are kept
		for i, old := range olds {
			var a nodeAttrs
			if err := json.Unmarshal([]byte(literal(old.Object)), &a); err != nil {
				return model.Meta{}, fmt.Errorf("update node %s: %w", n.ID, err)
			}
			if i == 0 || latest(a.Created, a.LastAccess).After(latest(attrs.Created, attrs.LastAccess)) {
				attrs = a
			}
		}
		attrs.ContentNode = n
		del = append(del, olds...) // every copy (see attrsQuads)
		add = append(add, attrsQuad(n.ID, attrs))
	}

	for _, d := range w.TouchDocs {
		olds, err := s.attrsQuads(ctx, d.ID)
		if err != nil {
			return model.Meta{}, err
		}
		if len(olds) == 0 {
			return model.Meta{}, fmt.Errorf("update document %s: no such document", d.ID)
		}
		del = append(del, olds...)
		add = append(add, attrsQuad(d.ID, d))
	}

	oldMeta, hadMeta, err := s.one(ctx, iriWorkspace, predMeta)
	if err != nil {
		return model.Meta{}, err
	}
	meta := w.Meta
	meta.Generation = 1
	if hadMeta {
		var prev metaAttrs
		if err := json.Unmarshal([]byte(literal(oldMeta.Object)), &prev); err == nil {
			meta.Generation = prev.Generation + 1
		}
		del = append(del, oldMeta)
	}
	b, _ := json.Marshal(metaAttrs{Schema: SchemaVersion, Meta: meta})
	add = append(add, quad.Make(iriWorkspace, predMeta, quad.String(b), nil))

	deltas := netDeltas(del, add)
	if s.kv != nil {
		return meta, s.commitBolt(deltas)
	}
	if s.snapshot != "" {
		// Only the changes that take effect, so that inverse can undo them.
		var err error
		if deltas, err = s.effective(ctx, deltas); err != nil {
			return model.Meta{}, fmt.Errorf("commit graph write: %w", err)
		}
	}
	if err := s.qs.ApplyDeltas(deltas, graph.IgnoreOpts{IgnoreDup: true, IgnoreMissing: true}); err != nil {
		return model.Meta{}, fmt.Errorf("commit graph write: %w", err)
	}
	if s.snapshot != "" {
		if err := s.saveSnapshot(context.WithoutCancel(ctx)); err != nil {
			// The file still holds the graph before this write: undo it in
			// memory too, so the write is all-or-nothing as with bolt.
			if uerr := s.qs.ApplyDeltas(inverse(deltas), graph.IgnoreOpts{IgnoreDup: true, IgnoreMissing: true}); uerr != nil {
				return model.Meta{}, fmt.Errorf("commit graph write: %w; undoing it in memory also failed: %v (reopen the workspace)", err, uerr)
			}
			return model.Meta{}, fmt.Errorf("commit graph write: %w", err)
		}
	}
	return meta, nil
}

// commitBolt applies deltas in the open batch, removals first, then
// additions, as two Cayley transactions (see boltKV for why), and commits
// the batch.
func (s *Store) commitBolt(deltas []graph.Delta) error {
	split := 0
	for split < len(deltas) && deltas[split].Action == graph.Delete {
		split++ // netDeltas puts every deletion first
	}
	opts := graph.IgnoreOpts{IgnoreDup: true, IgnoreMissing: true}
	if split > 0 {
		if err := s.qs.ApplyDeltas(deltas[:split], opts); err != nil {
			return fmt.Errorf("commit graph write to %s: %w", s.path, err)
		}
	}
	crash.At("graph-between-removals-and-additions")
	if split < len(deltas) {
		if err := s.qs.ApplyDeltas(deltas[split:], opts); err != nil {
			return fmt.Errorf("commit graph write to %s: %w", s.path, err)
		}
	}
	crash.At("graph-before-commit")
	if err := s.kv.commit(); err != nil {
		return fmt.Errorf("commit graph write to %s: %w", s.path, err)
	}
	crash.At("graph-after-commit")
	return nil
}

// netDeltas drops quads that are both deleted and added (Cayley applies
// additions before deletions within one transaction, so such a quad would
// otherwise vanish) and duplicates within each side.
func netDeltas(del, add []quad.Quad) []graph.Delta {
	key := func(q quad.Quad) string { return q.NQuad() }
	adding := make(map[string]bool, len(add))
	for _, q := range add {
		adding[key(q)] = true
	}
	out := make([]graph.Delta, 0, len(del)+len(add))
	deleting := make(map[string]bool, len(del))
	for _, q := range del {
		k := key(q)
		if deleting[k] {
			continue
		}
		deleting[k] = true
		if adding[k] {
			continue
		}
		out = append(out, graph.Delta{Quad: q, Action: graph.Delete})
	}
	seen := make(map[string]bool, len(add))
	for _, q := range add {
		k := key(q)
		if seen[k] || deleting[k] {
			continue
		}
		seen[k] = true
		out = append(out, graph.Delta{Quad: q, Action: graph.Add})
	}
	return out
}

// effective drops additions of quads already stored and deletions of quads
// not stored (the store ignores both), so that inverse(deltas) undoes
// exactly what applying them did.
func (s *Store) effective(ctx context.Context, deltas []graph.Delta) ([]graph.Delta, error) {
	out := deltas[:0]
	for _, d := range deltas {
		has, err := s.has(ctx, d.Quad)
		if err != nil {
			return nil, err
		}
		if has == (d.Action == graph.Delete) {
			out = append(out, d)
		}
	}
	return out, nil
}

// has tells whether q is stored.
func (s *Store) has(ctx context.Context, q quad.Quad) (bool, error) {
	ref := s.qs.ValueOf(q.Subject)
	if ref == nil {
		return false, nil
	}
	it := s.qs.QuadIterator(quad.Subject, ref)
	defer it.Close()
	for it.Next(ctx) {
		if s.qs.Quad(it.Result()) == q {
			return true, nil
		}
	}
	return false, it.Err()
}

// inverse undoes deltas that took effect (see effective).
func inverse(deltas []graph.Delta) []graph.Delta {
	out := make([]graph.Delta, len(deltas))
	for i, d := range deltas {
		if d.Action == graph.Add {
			d.Action = graph.Delete
		} else {
			d.Action = graph.Add
		}
		out[len(deltas)-1-i] = d
	}
	return out
}

// attrsQuads are the attribute quads of id: one, or none for an id not
// stored; more in a store written before Apply replaced a document's
// attributes when it was written again (Snapshot.Repeated).
func (s *Store) attrsQuads(ctx context.Context, id string) ([]quad.Quad, error) {
	ref := s.qs.ValueOf(IRI(id))
	if ref == nil {
		return nil, nil
	}
	it := s.qs.QuadIterator(quad.Subject, ref)
	defer it.Close()
	var out []quad.Quad
	for it.Next(ctx) {
		if q := s.qs.Quad(it.Result()); q.Predicate == predAttrs {
			out = append(out, q)
		}
	}
	return out, it.Err()
}
