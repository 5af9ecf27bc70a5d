package library

import (
	"context"

	"github.com/loomwork/loom/backend/sample"
)

// IngestSample adds the sample library (package sample: eight notes on
// retrieval-augmented generation, a paper and its bibliography) to the
// workspace, in the collection
// "sample". It goes through IngestUploads, which both editions share, so
// the notes are stored under the workspace's uploads and can be
// re-ingested or removed like any upload. A second call finds the notes
// unchanged and adds nothing.
func (w *Library) IngestSample(ctx context.Context, opts IngestOptions) (*IngestReport, error) {
	var files []Upload
	for _, f := range sample.Files() {
		files = append(files, Upload{Name: sample.Collection + "/" + f.Name, Text: f.Text})
	}
	for _, f := range sample.Papers() {
		files = append(files, Upload{Name: sample.Collection + "/" + f.Name, Data: f.Data})
	}
	return w.IngestUploads(ctx, files, opts)
}
