package query

import (
	"context"
	"strings"

	"github.com/loomwork/loom/backend/clusters"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/model"
)

// ClusterScope starts a scope that names a cluster of the concept graph:
// "cluster:" + the cluster's id (GraphCluster.ID, e.g. "cluster:c:c-1a2b…").
const ClusterScope = "cluster:"

// scope is where a question or a search looks: everywhere, in one
// collection, or in one cluster's sections.
type scope struct {
	collection string           // "" with cluster < 0: everywhere
	clusters   *clusters.Result // with cluster ≥ 0
	cluster    int
}

// everywhere is the scope of "" and "all".
var everywhere = &scope{cluster: -1}

// resolveScope reads a scope: "" or "all", a collection's name, or
// ClusterScope + a cluster's id. A cluster the workspace does not have is
// an error (clusters change as the library does, so an id may be gone);
// so is a collection it does not have when strict (the tools say so; a
// question's scope has always been a filter, which an unknown collection
// leaves empty). Callers hold the workspace's lock.
func (w *Pipeline) resolveScope(ctx context.Context, name string, strict bool) (*scope, error) {
	name = strings.TrimSpace(name)
	if name == "" || name == "all" {
		return everywhere, nil
	}
	if id, ok := strings.CutPrefix(name, ClusterScope); ok {
		cr, err := w.ws.Clusters(ctx)
		if err != nil {
			return nil, err
		}
		ci := cr.Find(id)
		if ci < 0 {
			return nil, errs.E(errs.NotFound, "no cluster %q in this workspace: clusters change as the library does (loom graph clusters lists them)", id)
		}
		return &scope{clusters: cr, cluster: ci}, nil
	}
	if strict && !w.hasCollection(name) {
		return nil, errs.E(errs.NotFound, "no collection %q (the catalog lists them; a cluster is %sID)", name, ClusterScope)
	}
	return &scope{collection: name, cluster: -1}, nil
}

// all reports whether the scope is everywhere.
func (s *scope) all() bool { return s.collection == "" && s.cluster < 0 }

// holds reports whether a content node of document d is in the scope.
func (s *scope) holds(n *model.ContentNode, d *model.Document) bool {
	switch {
	case s.all():
		return true
	case s.cluster >= 0:
		return s.clusters.NodeOf(n) == s.cluster
	}
	return d != nil && d.InCollection(s.collection)
}

// slots marks the query index's slots in the scope (nil: every slot).
func (s *scope) slots(r *index.Search) []bool {
	if s.all() {
		return nil
	}
	in := make([]bool, len(r.IDs))
	if s.cluster >= 0 {
		for _, id := range s.clusters.Clusters[s.cluster].SectionIDs() {
			if sl, ok := r.Slot[id]; ok {
				in[sl] = true
			}
		}
		return in
	}
	for id, d := range r.Graph.Docs {
		if d.InCollection(s.collection) {
			for _, nid := range r.Graph.DocNodes[id] {
				if sl, ok := r.Slot[nid]; ok {
					in[sl] = true
				}
			}
		}
	}
	return in
}
