package library

import (
	"context"
	"errors"

	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/model"
)

// IndexText adds a text as a document of its own in a collection: its
// sections become content nodes of the given provenance (answers are
// output nodes), linked to concepts like any other node. Re-indexing the
// same path replaces it.
func (w *Library) IndexText(ctx context.Context, collection, path, text string, kind model.Kind, provenance string) ([]string, error) {
	if err := w.ws.Writable("index " + path); err != nil {
		return nil, err
	}
	w.ws.Lock()
	defer w.ws.Unlock()
	if w.ws.Closed() {
		return nil, errors.New("index text: the workspace is closed")
	}
	e, err := w.ws.Embedder(ctx)
	if err != nil {
		return nil, err
	}
	ix, err := w.ws.Index(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := w.ws.Search(ctx); err != nil {
		return nil, err
	}
	iopts, err := w.ws.IngestOptions()
	if err != nil {
		return nil, err
	}
	docs, err := ingest.Parse("loom:"+collection+"/"+path, path, collection, []byte(text), iopts)
	if err != nil {
		return nil, err
	}
	prepared, err := w.prepareKind(ctx, e, docs, iopts, kind, provenance, nil)
	if err != nil {
		return nil, err
	}
	b := newBatch()
	var ids []string
	for _, pd := range prepared {
		w.link(ix, b, pd, w.ws.Now())
		for _, n := range pd.nodes {
			ids = append(ids, n.ID)
		}
	}
	if err := w.flush(ctx, ix, b); err != nil {
		return nil, err
	}
	return ids, nil
}
