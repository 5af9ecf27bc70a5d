package library

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/model"
)

// vaultPaths are the files of a vault as an ingest run's walk finds them.
var vaultPaths = []string{
	"Home.md", "Glossary.md", "Plan.md",
	"Projects/Alpha/Plan.md", "Projects/Alpha/Meeting notes.md", "Projects/Alpha/Spec Draft.md",
	"Projects/Beta/Overview.md", "Archive/Meeting notes.md", "Archive/2019/Meeting notes.md",
	"Concepts/Release 1.2.md", "Concepts/Graph theory.md", "Reading/notes.txt", "Reading/x.markdown",
	"Deep/A/B/Twin.md", "Deep/C/D/Twin.md",
}

func vaultResolver() *linkResolver {
	files := make([]ingest.File, len(vaultPaths))
	for i, p := range vaultPaths {
		files[i] = ingest.File{Path: p, Collection: "vault"}
	}
	return newLinkResolver(nil, files)
}

// resolvePaths resolves links from the note at from and names the paths
// they reach ("?" before a path no document has).
func resolvePaths(r *linkResolver, from string, links ...string) []string {
	names := map[string]string{}
	for _, p := range vaultPaths {
		names[model.DocumentID("vault", p)] = p
	}
	var out []string
	for _, id := range r.resolve(ingest.Document{Path: from, Collection: "vault", Format: ingest.FormatMarkdown}, links) {
		if p, ok := names[id]; ok {
			out = append(out, p)
		} else {
			out = append(out, "?"+id)
		}
	}
	return out
}

func TestWikiLinksResolveLikeObsidian(t *testing.T) {
	missing := func(p string) string { return "?" + model.DocumentID("vault", p) }
	tests := []struct {
		name, from, link string
		want             []string
	}{
		{"a path from the root", "Home.md", "[[Projects/Alpha/Plan]]", []string{"Projects/Alpha/Plan.md"}},
		{"a path from the root wins over a name", "Projects/Alpha/Spec Draft.md", "[[Plan]]", []string{"Plan.md"}},
		{"with its extension", "Home.md", "[[Projects/Alpha/Plan.md]]", []string{"Projects/Alpha/Plan.md"}},
		{"a path from the note's folder", "Projects/Alpha/Spec Draft.md", "[[../Beta/Overview]]", []string{"Projects/Beta/Overview.md"}},
		{"a unique name anywhere", "Home.md", "[[Graph theory]]", []string{"Concepts/Graph theory.md"}},
		{"a name in any case", "Home.md", "[[graph THEORY#Paths|paths]]", []string{"Concepts/Graph theory.md"}},
		{"the end of a path", "Home.md", "[[Alpha/Meeting notes]]", []string{"Projects/Alpha/Meeting notes.md"}},
		{"a shared name: the one beside the note (a path from its folder)", "Projects/Alpha/Plan.md", "[[Meeting notes]]", []string{"Projects/Alpha/Meeting notes.md"}},
		{"a shared name: else the one nearest the root", "Home.md", "[[Meeting notes]]", []string{"Archive/Meeting notes.md"}},
		{"a shared name from a deeper folder", "Archive/2019/Meeting notes.md", "[[Meeting notes]]", nil},
		{"a shared name at equal depth: the shorter path", "Home.md", "[[Twin]]", []string{"Deep/A/B/Twin.md"}},
		{"a name that ends like an extension", "Home.md", "[[Release 1.2]]", []string{"Concepts/Release 1.2.md"}},
		{"a text file Loom reads", "Home.md", "![[notes.txt]]", []string{"Reading/notes.txt"}},
		{"another markdown extension", "Home.md", "[[x.markdown]]", []string{"Reading/x.markdown"}},
		{"an embedded note", "Home.md", "![[Glossary#Terms]]", []string{"Glossary.md"}},
		{"an attachment Loom does not read", "Home.md", "![[diagram.png]]", nil},
		{"the same note", "Home.md", "[[#Map]]", nil},
		{"itself by name", "Glossary.md", "[[glossary]]", nil},
		{"a note that does not exist: at the root", "Projects/Alpha/Plan.md", "[[Missing note]]", []string{missing("Missing note.md")}},
		{"a path that does not exist: as written", "Home.md", "[[Nowhere/Deep Note#x]]", []string{missing("Nowhere/Deep Note.md")}},
		{"a readable file that does not exist", "Home.md", "[[paper.txt]]", []string{missing("paper.txt")}},
		{"a table's escaped pipe", "Home.md", `[[Glossary\|terms]]`, []string{"Glossary.md"}},
		{"outside the vault", "Home.md", "[[../Outside]]", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, resolvePaths(vaultResolver(), tt.from, tt.link))
		})
	}
}

func TestMarkdownLinksResolve(t *testing.T) {
	missing := func(p string) string { return "?" + model.DocumentID("vault", p) }
	tests := []struct {
		name, from, link string
		want             []string
	}{
		{"relative", "Projects/Alpha/Plan.md", "Spec%20Draft.md", []string{"Projects/Alpha/Spec Draft.md"}},
		{"up a folder, with an anchor", "Projects/Alpha/Plan.md", "../Beta/Overview.md#scope", []string{"Projects/Beta/Overview.md"}},
		{"pointy brackets (goldmark gives the path)", "Projects/Alpha/Plan.md", "Spec Draft.md", []string{"Projects/Alpha/Spec Draft.md"}},
		{"a vault note by name from another folder", "Projects/Beta/Overview.md", "Graph%20theory.md", []string{"Concepts/Graph theory.md"}},
		{"not there: a document to come, where the link says", "Projects/Alpha/Plan.md", "Later.md", []string{missing("Projects/Alpha/Later.md")}},
		{"URLs, anchors, absolute paths and mail are not documents", "Home.md", "https://x.org/a.md", nil},
		{"an anchor", "Home.md", "#map", nil},
		{"mail", "Home.md", "mailto:a@b.c", nil},
		{"outside the collection", "Home.md", "../up.md", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, resolvePaths(vaultResolver(), tt.from, tt.link))
		})
	}
}

func TestResolvedLinksAreDistinctAndKnowTheIndex(t *testing.T) {
	r := vaultResolver()
	got := resolvePaths(r, "Home.md", "[[Glossary]]", "[[GLOSSARY]]", "Glossary.md", "[[Glossary#Terms|t]]", "[[Plan]]")
	assert.Equal(t, []string{"Glossary.md", "Plan.md"}, got, "one edge per target")

	// Documents already in the workspace count like the run's files, in
	// their own collection only.
	docs := map[string]*model.Document{
		"a": {Collection: "vault", Path: "Old/Kept.md", Format: "markdown"},
		"b": {Collection: "other", Path: "Elsewhere.md", Format: "markdown"},
		"c": {Collection: "vault", Path: "corpus.jsonl", Format: string(ingest.FormatBEIR)},
	}
	r = newLinkResolver(docs, nil)
	d := ingest.Document{Path: "New.md", Collection: "vault", Format: ingest.FormatMarkdown}
	assert.Equal(t, []string{model.DocumentID("vault", "Old/Kept.md")}, r.resolve(d, []string{"[[Kept]]"}))
	assert.Equal(t, []string{model.DocumentID("vault", "Elsewhere.md")}, r.resolve(d, []string{"[[Elsewhere]]"}),
		"another collection's note is not this one's: the link waits at the root")
	assert.Nil(t, r.resolve(ingest.Document{Path: "q", Collection: "vault", Format: ingest.FormatBEIR}, []string{"[[Kept]]"}))
}

// TestANoteIsReadOnceForItsAliasesAndIds: a run whose links need both the
// notes' aliases and their ids reads each new note once for both.
func TestANoteIsReadOnceForItsAliasesAndIds(t *testing.T) {
	const id = "6500a1b2-1c2d-4e5f-8a9b-0c1d2e3f4a5b"
	texts := map[string]string{
		"Attention.md": "alias:: self-attention\n\n- Attention weighs tokens.\n  id:: " + id + "\n",
		"Study.org":    "* Study\n:PROPERTIES:\n:ID: org-1\n:END:\nNotes.\n",
		"Use.md":       "- See [[self-attention]] and ((" + id + ")).\n",
	}
	var files []ingest.File
	for p := range texts {
		files = append(files, ingest.File{Path: p, Abs: "/vault/" + p, Collection: "vault"})
	}
	r := newLinkResolver(nil, files)
	reads := map[string]int{}
	r.read = func(f ingest.File) ([]byte, error) {
		reads[f.Path]++
		return []byte(texts[f.Path]), nil
	}
	assert.Equal(t, "Attention.md", r.named("vault", "Self-Attention"))
	assert.Equal(t, "Attention.md", r.orgID("vault", id))
	assert.Equal(t, "Study.org", r.orgID("vault", "org-1"))
	assert.Equal(t, map[string]int{"Attention.md": 1, "Study.org": 1, "Use.md": 1}, reads)
}
