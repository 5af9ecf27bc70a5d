package library

import (
	"bytes"
	"cmp"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/model"
)

// linkResolver turns the links a document's sections hold into the ids of
// the documents they point at, within the document's collection, the way
// Obsidian reads a vault. It knows the documents already in the workspace
// and every file of the run it was made for, so a note links to one
// ingested after it in the same run. Its tables are built on the first
// link that needs them (most documents have none).
//
// A wiki link's target ([[folder/Note]], [[Note.md]], [[notes.txt]]) is,
// in this order:
//
//  1. a path from the collection's root, with or without ".md";
//  2. a path from the linking note's folder ("../Beta/Overview"; for a
//     bare name, the note of that name beside the linking one);
//  3. the one document whose path ends with the target, compared without
//     regard to case (a bare name is any note of that name);
//  4. of several, the one nearest the root (fewest folders, then the
//     shortest path, then the first in byte order): the note Obsidian's
//     "shortest path when possible" writes as a bare name, since the
//     others need a folder to tell them apart.
//
// A target found nowhere becomes an edge to the document it would be —
// the note Obsidian would create on a click, "<target>.md" from the root —
// so ingesting it later connects it. A target with an extension of a file
// Loom does not read (![[image.png]]) makes no edge unless a note of that
// name exists. Links within the note ([[#Heading]]) and to itself make
// none. A markdown link ([x](other.md), [x](Other%20Note.md),
// [x](<Other Note.md>)) is a path from the linking file's folder, as
// before; when nothing is there but the vault has a note it names, it
// links to that note (Obsidian writes [x](Note.md) for a note in
// another folder too). An Org-roam link ([[id:…]], which the Org reader
// writes as a Markdown link to "id:…") is to the document of the
// collection that gives itself or one of its headlines that :ID: — one
// already stored (its Meta.IDs) or a new or changed file of the run, which
// is read for its ids the first time such a link is met; an id found
// nowhere makes no edge, since no file name says where it will be.
// Citations and aliases are found the same way (cited, named).
type linkResolver struct {
	docs  map[string]*model.Document
	files []ingest.File
	cols  map[string]*collectionPaths // built on first use
	// symbols resolves the names source code uses into the symbol graph
	// (nil: no code in the run).
	symbols *symbolTable
	// conceptNames are the workspace's concepts by lower-case name (built
	// on first use). For source code, a name that a definition's concept
	// would have and a concept has already is that concept; for prose, a
	// name taken is told apart (concepts.Qualify).
	conceptNames map[string]string
	// read reads a file of the run (nil: the run's notes are not read
	// for their ids, aliases and keys); orgIDs are the collections' note
	// ids (Org's :ID:s, Logseq's block ids: ingest.NoteIDs), by collection
	// and id, built with names (noteTables).
	read func(ingest.File) ([]byte, error)
	// unchanged are the run's files known not to have changed, by
	// absolute path: what their stored documents say is current, so they
	// are not read again.
	unchanged map[string]bool
	orgIDs    pathTable
	// bibKeys are the reference entries by citation key, built on the
	// first citation (stored entries and the run's .bib and .ris files).
	bibKeys map[string][]bibEntry
	// names are the notes' aliases (front matter's; Logseq's alias:: and
	// title::), by collection and lower-case name; built with orgIDs on the
	// first wiki link no path resolves or id link (noteTables).
	names pathTable
}

// pathTable holds paths by collection and key; of two paths for one key,
// the first in byte order (the same one each time).
type pathTable map[string]map[string]string

func (t pathTable) add(collection, key, p string) {
	if key == "" {
		return
	}
	if t[collection] == nil {
		t[collection] = map[string]string{}
	}
	if old, ok := t[collection][key]; !ok || p < old {
		t[collection][key] = p
	}
}

// gather builds one of the resolver's tables: stored is told of every
// stored document whose file the run does not read again (what it says of
// itself is current), fresh of every new or changed file of the run that
// wants picks, with its bytes (read here, once: each table wants files of
// its own kind).
func (r *linkResolver) gather(stored func(id string, d *model.Document), wants func(ingest.File) bool, fresh func(ingest.File, []byte)) {
	reread := map[string]bool{}
	for _, f := range r.files {
		if r.toRead(f) {
			reread[f.Abs] = true
		}
	}
	for id, d := range r.docs {
		if !reread[fileKey(d)] {
			stored(id, d)
		}
	}
	for _, f := range r.files {
		if !r.toRead(f) || !wants(f) {
			continue
		}
		if data, err := r.read(f); err == nil { // a file that fails says so when it is ingested
			fresh(f, data)
		}
	}
}

// toRead reports whether the run's file f is read for what it says of
// itself (its Org ids, aliases, citation keys): it is new or changed.
func (r *linkResolver) toRead(f ingest.File) bool { return r.read != nil && !r.unchanged[f.Abs] }

// fileKey is the key of the file a stored document comes from (a BibTeX
// entry's key up to its "#").
func fileKey(d *model.Document) string {
	if d.Format == string(ingest.FormatBibTeX) {
		if i := strings.LastIndexByte(d.Key, '#'); i >= 0 {
			return d.Key[:i]
		}
	}
	return d.Key
}

// hasExt reports whether a file's name ends with one of exts.
func hasExt(f ingest.File, exts ...string) bool {
	ext := path.Ext(f.Path)
	for _, e := range exts {
		if strings.EqualFold(ext, e) {
			return true
		}
	}
	return false
}

// named is the path of the note of collection whose front matter gives it
// name as an alias ("" for none; of several, the first path in byte
// order): [[Self-attention]] is the note "Attention.md" that says
// "aliases: [Self-attention]" (Logseq links by alias; a link Obsidian
// would leave unresolved goes where its writer meant).
func (r *linkResolver) named(collection, name string) string {
	r.noteTables()
	return r.names[collection][strings.ToLower(strings.TrimSpace(name))]
}

// noteTables builds what notes say of themselves, in one read of the run's
// new and changed notes: the Markdown notes' aliases (names) and the
// notes' ids (orgIDs: Org's :ID:s, Logseq's block ids).
func (r *linkResolver) noteTables() {
	if r.names != nil {
		return
	}
	r.names, r.orgIDs = pathTable{}, pathTable{}
	alias := func(collection, alias, p string) {
		r.names.add(collection, strings.ToLower(strings.TrimSpace(alias)), p)
	}
	r.gather(func(_ string, d *model.Document) {
		if d.Format == string(ingest.FormatMarkdown) {
			for _, a := range d.Meta.Aliases {
				alias(d.Collection, a, d.Path)
			}
		}
		for _, id := range d.Meta.IDs {
			r.orgIDs.add(d.Collection, id, d.Path)
		}
	}, func(f ingest.File) bool {
		format, _ := ingest.FormatOf(f.Path)
		return format == ingest.FormatMarkdown || hasExt(f, ".org")
	}, func(f ingest.File, data []byte) {
		if format, _ := ingest.FormatOf(f.Path); format == ingest.FormatMarkdown && ingest.MayHaveFrontMatter(data) {
			for _, a := range ingest.ReadFrontMatter(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))).Meta.Aliases {
				alias(f.Collection, a, f.Path)
			}
		}
		for _, id := range ingest.NoteIDs(f.Path, data) {
			r.orgIDs.add(f.Collection, id, f.Path)
		}
	})
}

// bibEntry is a reference entry a citation key names.
type bibEntry struct{ id, collection string }

// cited is the document id of the reference entry (BibTeX or RIS) with the
// citation key: the one in collection if it has one, else the first of
// the library's in id order ("" for none). A key is the same paper across
// collections: a vault's draft cites the entries of a Zotero export
// beside it.
func (r *linkResolver) cited(collection, key string) string {
	if r.bibKeys == nil {
		r.bibKeys = map[string][]bibEntry{}
		add := func(key string, e bibEntry) {
			if !slices.Contains(r.bibKeys[key], e) {
				r.bibKeys[key] = append(r.bibKeys[key], e)
			}
		}
		r.gather(func(id string, d *model.Document) {
			if d.Format == string(ingest.FormatBibTeX) && d.Meta.BibKey != "" {
				add(d.Meta.BibKey, bibEntry{id, d.Collection})
			}
		}, func(f ingest.File) bool {
			format, _ := ingest.FormatOf(f.Path)
			return format == ingest.FormatBibTeX
		}, func(f ingest.File, data []byte) {
			for _, key := range ingest.ReferenceKeys(f.Path, data) {
				add(key, bibEntry{model.DocumentID(f.Collection, f.Path+"#"+key), f.Collection})
			}
		})
		for _, es := range r.bibKeys {
			slices.SortFunc(es, func(a, b bibEntry) int { return strings.Compare(a.id, b.id) })
		}
	}
	es := r.bibKeys[key]
	for _, e := range es {
		if e.collection == collection {
			return e.id
		}
	}
	if len(es) > 0 {
		return es[0].id
	}
	return ""
}

// orgID is the path of the document of collection that has the note id
// — an Org :ID:, a Logseq block's id — ("" for none).
func (r *linkResolver) orgID(collection, id string) string {
	r.noteTables()
	return r.orgIDs[collection][id]
}

// conceptNamed is the concept named name, if one is ("": none). Concepts
// founded by prose are included: "Louvain" in a note and in a package's
// name are one subject.
func (r *linkResolver) conceptNamed(ix *index.Graph, name string) string {
	if r.conceptNames == nil {
		r.conceptNames = map[string]string{}
		for id, c := range ix.Concepts {
			k := strings.ToLower(c.Name)
			if prev, ok := r.conceptNames[k]; !ok || id < prev {
				r.conceptNames[k] = id
			}
		}
	}
	return r.conceptNames[strings.ToLower(name)]
}

// addConcept records a concept the run founded.
func (r *linkResolver) addConcept(name, id string) {
	if r.conceptNames != nil {
		if _, ok := r.conceptNames[strings.ToLower(name)]; !ok {
			r.conceptNames[strings.ToLower(name)] = id
		}
	}
}

// collectionPaths are the documents of one collection, by lower-case path
// and by lower-case file name.
type collectionPaths struct {
	byPath map[string]string
	byName map[string][]string
}

// newLinkResolver makes a resolver over the documents in docs and the
// files of a run (either may be nil).
func newLinkResolver(docs map[string]*model.Document, files []ingest.File) *linkResolver {
	return &linkResolver{docs: docs, files: files}
}

func (r *linkResolver) collection(name string) *collectionPaths {
	if r.cols == nil {
		r.cols = map[string]*collectionPaths{}
		add := func(collection, p string) {
			c := r.cols[collection]
			if c == nil {
				c = &collectionPaths{byPath: map[string]string{}, byName: map[string][]string{}}
				r.cols[collection] = c
			}
			key := strings.ToLower(p)
			if _, dup := c.byPath[key]; !dup {
				c.byPath[key] = p
				name := path.Base(key)
				c.byName[name] = append(c.byName[name], p)
			}
		}
		for _, d := range r.docs {
			if d.Format != string(ingest.FormatBEIR) {
				add(d.Collection, d.Path)
			}
		}
		for _, f := range r.files {
			if format, _ := ingest.FormatOf(f.Path); format != ingest.FormatBEIR {
				add(f.Collection, f.Path)
			}
		}
	}
	if c := r.cols[name]; c != nil {
		return c
	}
	return &collectionPaths{}
}

// resolve maps a section's links to document ids, each once.
func (r *linkResolver) resolve(d ingest.Document, links []string) []string {
	if d.Format == ingest.FormatBEIR {
		return nil
	}
	var out []string
	self := model.DocumentID(d.Collection, d.Path)
	seen := map[string]bool{self: true}
	for _, l := range links {
		if key, ok := ingest.CitedKey(l); ok {
			if id := r.cited(d.Collection, key); id != "" && !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
			continue
		}
		var target string
		if w, ok := ingest.ParseWikiLink(l); ok {
			target = r.wiki(d, w.Target)
		} else {
			target = r.markdown(d, l)
		}
		if target == "" {
			continue
		}
		if id := model.DocumentID(d.Collection, target); !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// markdown resolves a markdown link's destination to a path ("" for none:
// an anchor, a URL, a path outside the collection).
func (r *linkResolver) markdown(d ingest.Document, l string) string {
	if id, ok := strings.CutPrefix(l, "id:"); ok {
		if p := r.orgID(d.Collection, strings.TrimSpace(id)); p != d.Path {
			return p
		}
		return ""
	}
	if l == "" || strings.HasPrefix(l, "#") || strings.Contains(l, "://") || strings.HasPrefix(l, "mailto:") || strings.HasPrefix(l, "/") {
		return ""
	}
	if i := strings.IndexAny(l, "#?"); i >= 0 {
		l = l[:i]
	}
	if u, err := url.PathUnescape(l); err == nil {
		l = u
	}
	target := path.Clean(path.Join(path.Dir(d.Path), l))
	if target == d.Path || strings.HasPrefix(target, "../") || target == ".." {
		return ""
	}
	c := r.collection(d.Collection)
	if p, ok := c.byPath[strings.ToLower(target)]; ok {
		return p
	}
	if p := c.find(path.Clean(l)); p != "" {
		return p
	}
	return target
}

// wiki resolves a wiki link's target to a path ("" for none).
func (r *linkResolver) wiki(d ingest.Document, target string) string {
	t := strings.TrimPrefix(strings.TrimSpace(target), "/")
	if t == "" {
		return ""
	}
	var forms []string // the file names the target may mean, in order
	_, readable := ingest.FormatOf(t)
	hasExt := isExtension(path.Ext(t))
	if hasExt && readable {
		forms = append(forms, t)
	}
	if !hasExt || !strings.EqualFold(path.Ext(t), ".md") {
		forms = append(forms, t+".md")
	}
	c := r.collection(d.Collection)
	dir := path.Dir(d.Path)
	for _, f := range forms {
		if p, ok := c.byPath[strings.ToLower(path.Clean(f))]; ok {
			return p
		}
		if rel := path.Clean(path.Join(dir, f)); !strings.HasPrefix(rel, "../") {
			if p, ok := c.byPath[strings.ToLower(rel)]; ok {
				return p
			}
		}
		if p := c.find(path.Clean(f)); p != "" {
			return p
		}
	}
	if !hasExt && strings.Contains(t, "/") {
		// Logseq's namespaced page [[a/b]] is the file a___b.md.
		if p := c.find(strings.ReplaceAll(t, "/", "___") + ".md"); p != "" {
			return p
		}
	}
	if p := r.named(d.Collection, t); p != "" {
		return p
	}
	if hasExt && !readable {
		return "" // an attachment Loom does not read
	}
	if p := path.Clean(forms[0]); !strings.HasPrefix(p, "../") && p != ".." {
		return p
	}
	return ""
}

// find is the document whose path ends with name (a file name, or the
// end of a path), compared without regard to case; of several, the one
// nearest the root: fewest folders, then the shortest path, then the first
// in byte order.
func (c *collectionPaths) find(name string) string {
	lower := strings.ToLower(name)
	var found []string
	for _, p := range c.byName[path.Base(lower)] {
		if lp := strings.ToLower(p); lp == lower || strings.HasSuffix(lp, "/"+lower) {
			found = append(found, p)
		}
	}
	if len(found) == 0 {
		return ""
	}
	return slices.MinFunc(found, func(a, b string) int {
		return cmp.Or(
			cmp.Compare(strings.Count(a, "/"), strings.Count(b, "/")),
			cmp.Compare(len(a), len(b)),
			strings.Compare(a, b))
	})
}

// isExtension reports whether ext (from path.Ext) is a file extension
// rather than the end of a note's name: "Release 1.2" and "Dr. Who" are
// notes, "diagram.png" is not.
func isExtension(ext string) bool {
	if len(ext) < 2 || len(ext) > 9 {
		return false
	}
	letter := false
	for _, c := range ext[1:] {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			letter = true
		case c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return letter
}
