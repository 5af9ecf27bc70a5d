package backend

import (
	"github.com/loomwork/loom/backend/library"
	"github.com/loomwork/loom/backend/watch"
)

// The library's types (backend/library).
type (
	IngestOptions   = library.IngestOptions
	IngestReport    = library.IngestReport
	Progress        = library.Progress
	DocumentInfo    = library.DocumentInfo
	Upload          = library.Upload
	CollectionInfo  = library.CollectionInfo
	GraphData       = library.GraphData
	GraphNode       = library.GraphNode
	GraphEdge       = library.GraphEdge
	GraphCluster    = library.GraphCluster
	ClusterLink     = library.ClusterLink
	NodeDetail      = library.NodeDetail
	ConceptLink     = library.ConceptLink
	Neighbour       = library.Neighbour
	Location        = library.Location
	SourceView      = library.SourceView
	SourceDocument  = library.SourceDocument
	SourceSection   = library.SourceSection
	ReembedReport   = library.ReembedReport
	ReembedProgress = library.ReembedProgress
)

// The stages of an ingest (Progress.Stage): its files embedded before the
// library changes, then written.
const (
	StageEmbedding = library.StageEmbedding
	StageWriting   = library.StageWriting
)

// DefaultBatchQuads is how many quads an ingest's transaction gathers
// before it commits.
const DefaultBatchQuads = library.DefaultBatchQuads

// MaxSourceBytes bounds the text a source view carries.
const MaxSourceBytes = library.MaxSourceBytes

// MaxNeighbours bounds the neighbours a node's details list.
const MaxNeighbours = library.MaxNeighbours

// ErrNotFound is returned for an id the workspace does not have.
var ErrNotFound = library.ErrNotFound

// FileProblem splits an ingest error into the file it names and the
// problem.
func FileProblem(err error) (file, problem string) { return library.FileProblem(err) }

// SyncResult is what a watched folder's sync (an ingest with Prune) did,
// for its watcher: the counts, and each file it could not read or read
// with a warning, "file: problem".
func SyncResult(rep *IngestReport) watch.Result {
	res := watch.Result{Added: rep.Added, Changed: rep.Updated, Removed: rep.Removed, Unchanged: rep.Unchanged, Errors: len(rep.Errors), Warnings: rep.Warnings}
	for _, e := range rep.Errors {
		res.Problems = append(res.Problems, e.Error())
	}
	return res
}
