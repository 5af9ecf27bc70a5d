// Package model holds Loom's graph vocabulary: documents, content nodes (the
// text that may be loaded into a prompt), concept nodes (topics the
// orchestration layer uses and never sends to the model) and the edges
// between them (seed §4). graphdb stores these in Cayley; the engine keeps
// them in memory for the query path.
package model

import (
	"fmt"
	"time"
)

// Kind is a content node's provenance class (seed §4.2): analysis and
// output nodes are denser per token than raw input.
type Kind string

// Content node kinds.
const (
	KindInput    Kind = "input"
	KindOutput   Kind = "output"
	KindAnalysis Kind = "analysis"
)

// EdgeKind tells edges apart.
type EdgeKind string

// Edge kinds.
const (
	// EdgeAbout links a content node to a concept it is about (weight: the
	// cosine similarity at link time).
	EdgeAbout EdgeKind = "about"
	// EdgeRelated links two concepts (weight: their cosine).
	EdgeRelated EdgeKind = "related"
	// EdgeParent links a section to the section that encloses it.
	EdgeParent EdgeKind = "parent"
	// EdgeLinks links a section to a document its text links to.
	EdgeLinks EdgeKind = "links"
	// EdgeDerived links an analysis node (summary, essence) to its source.
	EdgeDerived EdgeKind = "derived"
	// EdgeCalls links a definition in source code to a definition its body
	// calls or names (a function it calls, a type it uses). The edge points
	// at the target's node id, which for code is stable across re-ingests
	// (CodeNodeID), so it survives a change to the target's file.
	EdgeCalls EdgeKind = "calls"
	// EdgeImports links a source file's file node to a document it imports
	// (a file of the imported package or module).
	EdgeImports EdgeKind = "imports"
	// EdgeImplements links a type to an interface, trait or base class it
	// implements, embeds or extends.
	EdgeImplements EdgeKind = "implements"
)

// SymbolEdge reports whether an edge kind is one of source code's symbol
// graph (calls, imports, implements).
func (k EdgeKind) SymbolEdge() bool {
	return k == EdgeCalls || k == EdgeImports || k == EdgeImplements
}

// Document is a file (or a BEIR record) that was ingested.
type Document struct {
	ID         string    `json:"id"`
	Key        string    `json:"key"`
	Path       string    `json:"path"`
	Collection string    `json:"collection"`
	Format     string    `json:"format"`
	Title      string    `json:"title"`
	Hash       string    `json:"hash"`
	Bytes      int       `json:"bytes"`
	Ingested   time.Time `json:"ingested"`
	// Modified is the file's modification time when it was read (zero for
	// documents that are not files): a re-ingest leaves a file of the same
	// size and time unread.
	Modified time.Time `json:"modified,omitzero"`
	// Groups are collections the person put the document in by hand,
	// besides the one it was ingested into.
	Groups []string `json:"groups,omitempty"`
	// Meta is what the document says of itself: a note's front matter, a
	// paper's authors and identifiers, a BibTeX entry's fields.
	Meta DocMeta `json:"meta,omitzero"`
	// Reader is the version of its format's reader that read it
	// (ingest.ReaderVersion; 0 before readers had versions): a file read by
	// an older reader is read again, even unchanged.
	Reader int `json:"reader,omitempty"`
}

// DocMeta is what a document says of itself, where its format says it:
// front matter of a note (aliases, tags), a paper's authors and
// identifiers, a BibTeX entry's fields. All of it is optional.
type DocMeta struct {
	Aliases []string `json:"aliases,omitempty"`
	Tags    []string `json:"tags,omitempty"`
	Authors []string `json:"authors,omitempty"`
	Year    string   `json:"year,omitempty"`
	Venue   string   `json:"venue,omitempty"`
	// DOI is lower-cased, without a resolver prefix ("10.1000/xyz").
	DOI string `json:"doi,omitempty"`
	// ArXiv is the arXiv identifier without version ("2205.14135").
	ArXiv string `json:"arxiv,omitempty"`
	// Pages is a paged document's page count.
	Pages int `json:"pages,omitempty"`
	// BibKey is a BibTeX entry's citation key.
	BibKey string `json:"bibkey,omitempty"`
	// Language is a source file's programming language ("go", "python").
	Language string `json:"language,omitempty"`
	// IDs are the identifiers other documents' links may name this one
	// by: an Org file's :ID: properties (Org-roam's [[id:…]] links), a
	// Logseq page's block ids (its "((…))" block references).
	IDs []string `json:"ids,omitempty"`
}

// IsZero reports whether nothing is known.
func (m DocMeta) IsZero() bool {
	return len(m.Aliases) == 0 && len(m.Tags) == 0 && len(m.Authors) == 0 && m.Year == "" && m.Venue == "" &&
		m.DOI == "" && m.ArXiv == "" && m.Pages == 0 && m.BibKey == "" && m.Language == "" && len(m.IDs) == 0
}

// InCollection reports whether the document belongs to a collection,
// by folder or by hand.
func (d *Document) InCollection(name string) bool {
	if d.Collection == name {
		return true
	}
	for _, g := range d.Groups {
		if g == name {
			return true
		}
	}
	return false
}

// ContentNode is loadable text: a section, a chunk of one, an answer, a
// summary.
type ContentNode struct {
	ID          string    `json:"id"`
	DocID       string    `json:"document"`
	Ref         string    `json:"reference"`
	Ancestors   []string  `json:"ancestors,omitempty"`
	HeadingPath []string  `json:"heading_path,omitempty"`
	LineStart   int       `json:"line_start"`
	LineEnd     int       `json:"line_end"`
	Ordinal     int       `json:"ordinal"`
	Part        int       `json:"part"`
	Parts       int       `json:"parts"`
	ContentHash string    `json:"content_hash"`
	Kind        Kind      `json:"type"`
	ContentType string    `json:"content_type"`
	Complexity  float64   `json:"complexity"`
	Tokens      int       `json:"tokens"`
	Created     time.Time `json:"created"`
	LastAccess  time.Time `json:"last_access"`
	// Provenance says what made the node and why, e.g. "ingest reference/loom-concept.md".
	Provenance string `json:"provenance"`
	// Parent is the enclosing section's node id ("" at the top).
	Parent string `json:"parent,omitempty"`
	// NearMiss is the best concept below the threshold when this node
	// created a new concept (threshold tuning, seed §4.3).
	NearMiss    string  `json:"near_miss,omitempty"`
	NearMissSim float64 `json:"near_miss_similarity,omitempty"`
	// Pinned nodes are always loaded first (the "always upfront" tier).
	Pinned bool `json:"pinned,omitempty"`
	// Source and Level describe an analysis node: the node it condenses
	// and how far (summary, essence).
	Source string `json:"source,omitempty"`
	Level  string `json:"level,omitempty"`
	// PageStart and PageEnd are the 1-based pages a section of a paged
	// document (a PDF) spans, 0 for other documents.
	PageStart int `json:"page_start,omitempty"`
	PageEnd   int `json:"page_end,omitempty"`
	// Symbol describes a definition in source code (nil for other nodes):
	// what the node defines, as a reference into its file.
	Symbol *Symbol `json:"symbol,omitempty"`
}

// Symbol is what a content node of source code defines. With the node's
// reference (file and name), its lines and its content hash it is a lazy
// reference: the text is read from the file when the node loads, and a
// file changed since indexing is told, never served silently.
type Symbol struct {
	// Kind is "file" for a file's own node, else the definition's kind:
	// func, method, type, struct, interface, class, enum, trait, const,
	// var, macro.
	Kind string `json:"kind"`
	// Name is the name within the file ("Rank", "Library.link").
	Name string `json:"name,omitempty"`
	// Signature is the declaration's header on one line.
	Signature string `json:"signature,omitempty"`
	// Methods are the methods an interface or trait declares.
	Methods []string `json:"methods,omitempty"`
	// Exported tells a definition visible outside its package or module.
	Exported bool `json:"exported,omitempty"`
	// Hash is the hash of the definition's lines (Start–End) as indexed; a
	// file node has none (its document's hash tells).
	Hash string `json:"hash,omitempty"`
	// Start and End are the definition's lines, 1-based and inclusive (a
	// node that is one part of a long definition has lines of its own).
	Start int `json:"start,omitempty"`
	End   int `json:"end,omitempty"`
}

// CodeNodeID is the id of a node of source code: stable for the same
// definition (document, reference, part) across edits of its text, so the
// symbol graph's edges from other files stay pointed at it.
func CodeNodeID(docID, ref string, part int) string {
	return "n-" + ShortHash(docID, "code", ref, fmt.Sprint(part))
}

// Concept is a topic node.
type Concept struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Created     time.Time `json:"created"`
	// Seed is the content node whose vector founded the concept.
	Seed string `json:"seed"`
}

// Edge is a typed, weighted link.
type Edge struct {
	Kind EdgeKind `json:"kind"`
	From string   `json:"from"`
	To   string   `json:"to"`
	// Weight is the similarity for about/related edges, 1 otherwise.
	Weight float64 `json:"similarity"`
	// Direction is the provenance direction of an about edge: "input" or
	// "output" (was it linked because of an input or an answer?).
	Direction string    `json:"provenance,omitempty"`
	Created   time.Time `json:"timestamp,omitzero"`
}

// Meta are the workspace-wide facts stored with every write, so that stats
// need no scan.
type Meta struct {
	Documents    int    `json:"documents"`
	ContentNodes int    `json:"content_nodes"`
	ConceptNodes int    `json:"concept_nodes"`
	Edges        int    `json:"edges"`
	Tokens       int64  `json:"tokens"`
	Embedder     string `json:"embedder"`
	// Generation increases with every committed write; caches of the
	// working index are valid only for the generation they were made at.
	Generation int64 `json:"generation"`
}
