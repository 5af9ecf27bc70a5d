package library

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/graphdb"
)

// CollectionInfo is one collection: the folder documents were ingested
// from, or a group made by hand.
type CollectionInfo struct {
	Name      string `json:"name"`
	Documents int    `json:"documents"`
	Sections  int    `json:"sections"`
}

// Collections lists every collection with its size.
func (w *Library) Collections(ctx context.Context) ([]CollectionInfo, error) {
	w.ws.Lock()
	defer w.ws.Unlock()
	ix, err := w.ws.Index(ctx)
	if err != nil {
		return nil, err
	}
	by := map[string]*CollectionInfo{}
	add := func(name string, d *model.Document) {
		c := by[name]
		if c == nil {
			c = &CollectionInfo{Name: name}
			by[name] = c
		}
		c.Documents++
		c.Sections += ix.Sections(d.ID)
	}
	for _, d := range ix.Docs {
		add(d.Collection, d)
		for _, g := range d.Groups {
			if g != d.Collection {
				add(g, d)
			}
		}
	}
	out := make([]CollectionInfo, 0, len(by))
	for _, c := range by {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Group puts documents (by id, path or key) into a collection by hand, or
// takes them out of it (add false). Scoped searches and questions then
// include or leave them out.
func (w *Library) Group(ctx context.Context, collection string, docs []string, add bool) error {
	if err := w.ws.Writable("collection " + collection); err != nil {
		return err
	}
	collection = strings.TrimSpace(collection)
	if collection == "" || strings.ContainsAny(collection, "/\\\n") {
		return fmt.Errorf("collection name %q: use a plain name", collection)
	}
	if len(docs) == 0 {
		return errors.New("which documents? give ids or paths")
	}
	w.ws.Lock()
	defer w.ws.Unlock()
	ix, err := w.ws.Index(ctx)
	if err != nil {
		return err
	}
	var touch []model.Document
	var unknown []string
	for _, ref := range docs {
		var found []*model.Document
		for _, d := range ix.Docs {
			if d.ID == ref || d.Path == ref || d.Key == ref {
				found = append(found, d)
			}
		}
		if len(found) == 0 {
			unknown = append(unknown, ref)
		}
		for _, d := range found {
			has := slices.Contains(d.Groups, collection)
			switch {
			case add && !has:
				d.Groups = append(d.Groups, collection)
				sort.Strings(d.Groups)
			case !add && has:
				d.Groups = slices.DeleteFunc(d.Groups, func(g string) bool { return g == collection })
				if len(d.Groups) == 0 {
					d.Groups = nil
				}
			default:
				continue
			}
			touch = append(touch, *d)
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("no document %s in this workspace", strings.Join(unknown, ", "))
	}
	if len(touch) == 0 {
		return nil
	}
	meta, err := w.ws.Apply(ctx, graphdb.Write{TouchDocs: touch, Meta: w.ws.Meta()})
	if err != nil {
		w.ws.Invalidate()
		return fmt.Errorf("group documents: %w", err)
	}
	w.ws.SetMeta(meta)
	return nil
}
