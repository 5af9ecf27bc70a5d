package library

import (
	"context"
	"fmt"
	"strings"

	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/graphdb"
)

// Pin marks nodes — or every section of a document — as always loaded
// first (pinned = true) or not, and writes it at once. Unknown ids are an
// error naming them.
func (w *Library) Pin(ctx context.Context, ids []string, pinned bool) error {
	if err := w.ws.Writable("pin"); err != nil {
		return err
	}
	w.ws.Lock()
	defer w.ws.Unlock()
	ix, err := w.ws.Index(ctx)
	if err != nil {
		return err
	}
	var touch []model.ContentNode
	var unknown []string
	for _, id := range ids {
		nodes := []string{id}
		if _, ok := ix.Docs[id]; ok {
			nodes = ix.DocNodes[id]
		} else if _, ok := ix.Nodes[id]; !ok {
			unknown = append(unknown, id)
			continue
		}
		for _, nid := range nodes {
			if n := ix.Nodes[nid]; n != nil && index.Searchable(n) && n.Pinned != pinned {
				n.Pinned = pinned
				touch = append(touch, *n)
			}
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("pin: no node or document %s in this workspace", strings.Join(unknown, ", "))
	}
	if len(touch) == 0 {
		return nil
	}
	if r := w.ws.LiveSearch(ix); r != nil {
		for _, n := range touch {
			if pinned {
				r.Pins[n.ID] = true
			} else {
				delete(r.Pins, n.ID)
			}
		}
	}
	meta, err := w.ws.Apply(ctx, graphdb.Write{Touch: touch, Meta: w.ws.Meta()})
	if err != nil {
		w.ws.Invalidate()
		return fmt.Errorf("pin: %w", err)
	}
	w.ws.SetMeta(meta)
	return nil
}
