package backend

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/loomwork/loom/backend/clusters"
)

// BenchmarkGraph times the graph view's data at 10,000 and 50,000 nodes
// (synthetic workspaces, offline embedder, ingested before the timer):
//
//	go test ./backend -run '^$' -bench Graph -benchtime 10x -cpu 1
//
// "first" is a new Workbench's first Graph (open, working index, clusters,
// graph); "clusters-build" and "clusters-fingerprint" are the cluster
// work alone (what the first Graph of a generation whose library changed
// pays, and what one whose did not pays); the loop is Graph with the
// clusters cached.
func BenchmarkGraph(b *testing.B) {
	ctx := context.Background()
	for _, nodes := range []int{10_000, 50_000} {
		be := benchEmbedders(b)[0]
		b.Run(fmt.Sprintf("%dnodes-%s", nodes, be.name), func(b *testing.B) {
			opts := []Option{WithEmbedder(be.e), WithConceptThreshold(be.threshold)}
			dir := ingestSynthetic(b, nodes, opts...)
			t0 := time.Now()
			wb, err := Open(ctx, dir, opts...)
			if err != nil {
				b.Fatal(err)
			}
			defer wb.Close()
			g, err := wb.Graph(ctx)
			if err != nil {
				b.Fatal(err)
			}
			first := time.Since(t0)
			wb.ws.Lock()
			ix, err := wb.ws.Index(ctx)
			wb.ws.Unlock()
			if err != nil {
				b.Fatal(err)
			}
			t1 := time.Now()
			const reps = 5
			for range reps {
				clusters.Build(ix, clusters.Defaults)
			}
			build := time.Since(t1) / reps
			t2 := time.Now()
			for range reps {
				clusters.Fingerprint(ix)
			}
			fingerprint := time.Since(t2) / reps
			for b.Loop() {
				if _, err := wb.Graph(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(first.Milliseconds()), "first-ms")
			b.ReportMetric(float64(build.Microseconds())/1000, "clusters-build-ms")
			b.ReportMetric(float64(fingerprint.Microseconds())/1000, "clusters-fingerprint-ms")
			b.ReportMetric(float64(len(g.Clusters)), "clusters")
			b.ReportMetric(float64(len(g.Nodes)), "graph-nodes")
		})
	}
}
