package query

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/errs"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/model"
)

// The repository map (level "map"): instead of the texts of the
// definitions a question needs, the context is a map of the code around
// them — the files ranked by how relevant their definitions are to the
// question and by how much of the other code uses them (calls, implements
// and imports edges pointing at them), each file with the signatures of
// its key definitions: the relevant ones first, then those most used.
// Lines go in until the budget is spent; every definition named keeps its
// node id, so the model can expand the ones it wants in full.
//
//	[Repository map: 4 files of 31 with definitions relevant to the question; expand an id to read its code]
//	backend/assemble/select.go:
//	  [tdaco] func Rank(cands []*Candidate, w Weights, cfg Config) · L120–190
//	  [imkn] type Candidate struct · L12–70

// mapOthers is how many definitions a file of the map shows beside the
// relevant ones: those most used by other code.
const mapOthers = 3

// mapSignature is how many runes of a signature a line of the map shows.
const mapSignature = 120

// mapFile is one file of the map.
type mapFile struct {
	doc   *model.Document
	score float64
	defs  []mapDef
}

// mapDef is one definition the map may name.
type mapDef struct {
	node  *model.ContentNode
	cand  *assemble.Candidate // nil for a definition the question did not rank
	score float64
}

// centralityOf is how much other code uses a node: the edges of the
// symbol graph that point at it, on a log scale.
func centralityOf(r *index.Search, id string) float64 {
	return math.Log1p(float64(len(r.Callers[id])))
}

// repoMap renders the map of the ranked candidates within the split.
func repoMap(r *index.Search, cands []*assemble.Candidate, split assemble.Split, system, question string, count assemble.Counter) (*assemble.Assembly, error) {
	ix := r.Graph
	files := map[string]*mapFile{}
	best := 0.0
	for _, c := range cands {
		best = max(best, c.Score)
	}
	if best <= 0 {
		best = 1
	}
	for _, c := range cands {
		n := ix.Nodes[c.ID]
		if n == nil || n.Symbol == nil || n.Kind != model.KindInput {
			continue
		}
		f := files[n.DocID]
		if f == nil {
			d := ix.Docs[n.DocID]
			if d == nil {
				continue
			}
			f = &mapFile{doc: d}
			files[n.DocID] = f
		}
		f.score = max(f.score, c.Score/best)
	}
	if len(files) == 0 {
		return nil, errs.E(errs.Invalid, "the map level draws source code, and no source file in this library is near the question: ask without --level map, or ingest the repository")
	}
	ranked := make([]*mapFile, 0, len(files))
	scoreOf := map[string]*assemble.Candidate{}
	for _, c := range cands {
		scoreOf[c.ID] = c
	}
	for _, f := range files {
		use := 0.0
		for _, id := range ix.DocNodes[f.doc.ID] {
			n := ix.Nodes[id]
			if n == nil || n.Symbol == nil || n.Kind != model.KindInput || n.Part > 1 {
				continue
			}
			cen := centralityOf(r, id)
			use += cen
			d := mapDef{node: n, cand: scoreOf[id], score: 0.1 * cen}
			if d.cand != nil {
				d.score += d.cand.Score / best
				if d.cand.Relevant {
					d.score += 1
				}
			}
			if n.Symbol.Kind != "file" {
				f.defs = append(f.defs, d)
			}
		}
		f.score += 0.05 * math.Log1p(use)
		slices.SortStableFunc(f.defs, func(a, b mapDef) int {
			if c := cmp.Compare(b.score, a.score); c != 0 {
				return c
			}
			return cmp.Compare(a.node.LineStart, b.node.LineStart)
		})
		ranked = append(ranked, f)
	}
	slices.SortStableFunc(ranked, func(a, b *mapFile) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return strings.Compare(a.doc.Path, b.doc.Path)
	})

	// Every definition the map may name gets the short id the prompt uses
	// (a candidate's, or one made beside them).
	all := append([]*assemble.Candidate(nil), cands...)
	extra := map[string]*assemble.Candidate{}
	for _, f := range ranked {
		for _, d := range f.defs {
			if d.cand == nil {
				c := &assemble.Candidate{ID: d.node.ID}
				extra[d.node.ID] = c
				all = append(all, c)
			}
		}
	}
	assemble.ShortIDs(all, r.SortedIDs())
	shortOf := func(d mapDef) string {
		if d.cand != nil && d.cand.ShortID != "" {
			return d.cand.ShortID
		}
		if c := extra[d.node.ID]; c != nil && c.ShortID != "" {
			return c.ShortID
		}
		return d.node.ID
	}
	head := func(shown int) string {
		return fmt.Sprintf("[Repository map: %d of %d files near the question, ranked by relevance and by how much other code uses them; expand an id to read its code]", shown, len(ranked))
	}
	room := split.Context - count(head(len(ranked))) - 2
	var b strings.Builder
	var loaded []*assemble.Candidate
	shown, used := 0, 0
	for _, f := range ranked {
		fileLine := f.doc.Path + ":"
		cost := count(fileLine) + 1
		var lines []string
		var names []*assemble.Candidate
		others := 0
		for _, d := range f.defs {
			if d.cand == nil || !d.cand.Relevant {
				// Beside the relevant definitions, a file shows its few
				// most used ones, so that one file does not fill the map.
				if others == mapOthers || d.cand == nil && !d.node.Symbol.Exported && d.score < 0.2 {
					continue
				}
				others++
			}
			line := "  [" + shortOf(d) + "] " + signatureOf(d.node)
			if span := model.Span(d.node.LineStart, d.node.LineEnd); span != "" {
				line += " · L" + span
			}
			t := count(line) + 1
			if cost+t > room-used {
				break
			}
			cost += t
			lines = append(lines, line)
			if d.cand != nil {
				d.cand.LoadedTokens = t
				names = append(names, d.cand)
			}
		}
		if len(lines) == 0 {
			if shown == 0 {
				continue
			}
			break
		}
		b.WriteString(fileLine + "\n" + strings.Join(lines, "\n") + "\n")
		used += cost
		shown++
		loaded = append(loaded, names...)
	}
	for _, c := range loaded {
		c.Loaded, c.Level = true, assemble.Map
	}
	manifest := head(shown)
	ctx := manifest + "\n\n" + strings.TrimRight(b.String(), "\n")
	total := count(ctx)
	if total > split.Context {
		return nil, errs.E(errs.Invalid, "the context budget of %d tokens is too small for a map of the code: raise the budget", split.Context)
	}
	a := &assemble.Assembly{Split: split, Manifest: manifest, Context: ctx}
	a.Selection = assemble.Selection{Branch: assemble.BranchMap, Loaded: loaded, Used: total - count(manifest)}
	for _, c := range cands {
		if c.Relevant || c.Pinned {
			a.Selection.Relevant++
			if !c.Loaded {
				a.Selection.NotLoaded++
			}
		}
	}
	a.Prompt = assemble.Prompt(system, ctx, question)
	a.Split.Manifest = count(manifest)
	a.Split.Loaded = a.Selection.Used
	a.Split.Free = max(0, split.Context-total)
	return a, nil
}

// signatureOf is a definition's one-line signature (its kind and name
// when the parser gave none).
func signatureOf(n *model.ContentNode) string {
	if s := strings.TrimSpace(n.Symbol.Signature); s != "" {
		if r := []rune(s); len(r) > mapSignature {
			s = strings.TrimSpace(string(r[:mapSignature-1])) + "…"
		}
		return s
	}
	return n.Symbol.Kind + " " + n.Symbol.Name
}
