package index

import (
	"bufio"
	"encoding/binary"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"reflect"
	"slices"
	"sort"
	"time"

	"github.com/loomwork/loom/backend/crash"
	"github.com/loomwork/loom/backend/model"
	"github.com/loomwork/loom/graphdb"
)

// cacheFile is what index.cache holds in gob, the fallback format (see
// indexCacheFieldsKnown): the snapshot of one generation.
type cacheFile struct {
	Generation int64
	Snapshot   *graphdb.Snapshot
}

func (ix *Graph) SaveCache(path string, meta model.Meta) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("save index cache: %w", err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	if indexCacheFieldsKnown {
		var b []byte
		if b, err = encodeIndexCache(ix.Snapshot(meta), meta.Generation); err == nil {
			_, err = bw.Write(b)
		}
	} else {
		err = gob.NewEncoder(bw).Encode(cacheFile{Generation: meta.Generation, Snapshot: ix.Snapshot(meta)})
	}
	if err != nil {
		f.Close()
		return fmt.Errorf("save index cache: %w", err)
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	crash.At("index-cache-before-rename")
	return os.Rename(tmp, path)
}

// AnyGeneration asks loadCache for the index cache whatever its
// generation (a read-only open beside the process that writes the store).
const AnyGeneration = -1

// LoadGraphCache reads the index cache when it was made at generation, else
// returns nil. The concepts come in the snapshot's order.
func LoadGraphCache(path string, generation int64) (*Graph, []model.Concept) {
	if indexCacheFieldsKnown {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, nil
		}
		ix, concepts, err := decodeIndexCache(b, generation)
		if err != nil {
			return nil, nil
		}
		return ix, concepts
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil
	}
	defer f.Close()
	var c cacheFile
	if err := gob.NewDecoder(bufio.NewReaderSize(f, 1<<20)).Decode(&c); err != nil || (c.Generation != generation && generation != AnyGeneration) || c.Snapshot == nil {
		return nil, nil
	}
	ix := FromSnapshot(c.Snapshot)
	ix.Saved = c.Snapshot.Meta
	ix.Saved.Generation = c.Generation
	return ix, c.Snapshot.Concepts
}

// index.cache holds the working index of one generation in a flat binary
// layout (gob took a quarter of a second at 50,000 nodes):
//
//	"LOOMIDX2", generation (uint64 LE), payload length (uint64 LE),
//	CRC-32C of the 24 bytes before it and the payload (uint32 LE), 0 (uint32)
//	payload: a table of every distinct string, then the workspace facts
//	(JSON, length first), documents, document → nodes, content nodes,
//	concepts and edges (grouped by source, in the snapshot's order), each
//	field a varint, a string's number in the table, a float64 or a time's
//	MarshalBinary bytes.
//
// A stale, truncated or corrupt file fails the generation, length or
// checksum test and the index is read from the store instead. The codec
// names every field of the model types it writes; indexCacheFieldsKnown
// checks at start-up that those are all the fields there are, and if a
// field was added without the codec learning it, the cache is written and
// read with gob instead, so nothing is silently dropped.
//
// LOOMIDX5: a cache written before stores kept one copy of each node's
// attributes may hold a summary's edges once per stored copy (and count
// them in the workspace facts); such caches are read from the store again,
// whose snapshot keeps one copy (graphdb.Snapshot.Repeated).
// LOOMIDX6: a document's reader version (model.Document.Reader).
const indexCacheMagic = "LOOMIDX6"

const indexCacheHeader = 32

// indexCacheFields are the model fields the flat codec writes, in order.
var indexCacheFields = map[reflect.Type][]string{
	reflect.TypeFor[model.Document]():    {"ID", "Key", "Path", "Collection", "Format", "Title", "Hash", "Bytes", "Ingested", "Modified", "Groups", "Meta", "Reader"},
	reflect.TypeFor[model.ContentNode](): {"ID", "DocID", "Ref", "Ancestors", "HeadingPath", "LineStart", "LineEnd", "Ordinal", "Part", "Parts", "ContentHash", "Kind", "ContentType", "Complexity", "Tokens", "Created", "LastAccess", "Provenance", "Parent", "NearMiss", "NearMissSim", "Pinned", "Source", "Level", "PageStart", "PageEnd", "Symbol"},
	reflect.TypeFor[model.Concept]():     {"ID", "Name", "Description", "Created", "Seed"},
	reflect.TypeFor[model.Edge]():        {"Kind", "From", "To", "Weight", "Direction", "Created"},
}

// indexCacheFieldsKnown: the model types have exactly the fields above.
var indexCacheFieldsKnown = func() bool {
	for t, names := range indexCacheFields {
		if t.NumField() != len(names) {
			return false
		}
		for i, name := range names {
			if t.Field(i).Name != name {
				return false
			}
		}
	}
	return true
}()

// idxEncoder appends the payload; strings go to a table written first.
type idxEncoder struct {
	b       []byte
	strings map[string]uint64
	table   []string
}

func (e *idxEncoder) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }

func (e *idxEncoder) int(v int) { e.b = binary.AppendVarint(e.b, int64(v)) }

func (e *idxEncoder) float(v float64) {
	e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(v))
}

func (e *idxEncoder) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

func (e *idxEncoder) str(s string) {
	n, ok := e.strings[s]
	if !ok {
		n = uint64(len(e.table))
		e.strings[s] = n
		e.table = append(e.table, s)
	}
	e.uint(n)
}

// strs writes a string slice; an empty one reads back as nil, as with gob.
func (e *idxEncoder) strs(ss []string) {
	e.uint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

func (e *idxEncoder) time(t time.Time) error {
	if t.IsZero() {
		e.uint(0)
		return nil
	}
	b, err := t.MarshalBinary()
	if err != nil {
		return err
	}
	e.uint(uint64(len(b)))
	e.b = append(e.b, b...)
	return nil
}

// encodeIndexCache encodes a sorted snapshot.
func encodeIndexCache(s *graphdb.Snapshot, generation int64) ([]byte, error) {
	e := &idxEncoder{strings: map[string]uint64{"": 0}, table: []string{""}}
	var terr error
	tm := func(t time.Time) {
		if err := e.time(t); err != nil && terr == nil {
			terr = err
		}
	}
	facts, err := json.Marshal(s.Meta)
	if err != nil {
		return nil, err
	}
	e.uint(uint64(len(facts)))
	e.b = append(e.b, facts...)
	e.uint(uint64(len(s.Documents)))
	for i := range s.Documents {
		d := &s.Documents[i]
		e.str(d.ID)
		e.str(d.Key)
		e.str(d.Path)
		e.str(d.Collection)
		e.str(d.Format)
		e.str(d.Title)
		e.str(d.Hash)
		e.int(d.Bytes)
		tm(d.Ingested)
		tm(d.Modified)
		e.strs(d.Groups)
		meta := ""
		if !d.Meta.IsZero() {
			b, _ := json.Marshal(d.Meta)
			meta = string(b)
		}
		e.str(meta)
		e.int(d.Reader)
	}
	docIDs := make([]string, 0, len(s.DocNodes))
	for id := range s.DocNodes {
		docIDs = append(docIDs, id)
	}
	sort.Strings(docIDs)
	e.uint(uint64(len(docIDs)))
	for _, id := range docIDs {
		e.str(id)
		e.strs(s.DocNodes[id])
	}
	e.uint(uint64(len(s.Nodes)))
	for i := range s.Nodes {
		n := &s.Nodes[i]
		e.str(n.ID)
		e.str(n.DocID)
		e.str(n.Ref)
		e.strs(n.Ancestors)
		e.strs(n.HeadingPath)
		e.int(n.LineStart)
		e.int(n.LineEnd)
		e.int(n.Ordinal)
		e.int(n.Part)
		e.int(n.Parts)
		e.str(n.ContentHash)
		e.str(string(n.Kind))
		e.str(n.ContentType)
		e.float(n.Complexity)
		e.int(n.Tokens)
		tm(n.Created)
		tm(n.LastAccess)
		e.str(n.Provenance)
		e.str(n.Parent)
		e.str(n.NearMiss)
		e.float(n.NearMissSim)
		e.bool(n.Pinned)
		e.str(n.Source)
		e.str(n.Level)
		e.int(n.PageStart)
		e.int(n.PageEnd)
		sym := ""
		if n.Symbol != nil {
			b, _ := json.Marshal(n.Symbol)
			sym = string(b)
		}
		e.str(sym)
	}
	e.uint(uint64(len(s.Concepts)))
	for i := range s.Concepts {
		c := &s.Concepts[i]
		e.str(c.ID)
		e.str(c.Name)
		e.str(c.Description)
		tm(c.Created)
		e.str(c.Seed)
	}
	// Edges grouped by source, each group in the snapshot's order, which
	// is the order indexFromSnapshot gives ix.out.
	var froms []string
	groups := map[string][]int{}
	for i, ed := range s.Edges {
		if _, ok := groups[ed.From]; !ok {
			froms = append(froms, ed.From)
		}
		groups[ed.From] = append(groups[ed.From], i)
	}
	e.uint(uint64(len(s.Edges)))
	e.uint(uint64(len(froms)))
	for _, from := range froms {
		e.str(from)
		e.uint(uint64(len(groups[from])))
		for _, i := range groups[from] {
			ed := &s.Edges[i]
			e.str(string(ed.Kind))
			e.str(ed.To)
			e.float(ed.Weight)
			e.str(ed.Direction)
			tm(ed.Created)
		}
	}
	if terr != nil {
		return nil, terr
	}

	// The string table goes first: count, the end of each string in the
	// blob, the blob.
	blob := 0
	for _, s := range e.table {
		blob += len(s)
	}
	le := binary.LittleEndian
	out := make([]byte, indexCacheHeader, indexCacheHeader+8+4*len(e.table)+blob+len(e.b))
	out = le.AppendUint32(out, uint32(len(e.table)))
	end := 0
	for _, s := range e.table {
		end += len(s)
		out = le.AppendUint32(out, uint32(end))
	}
	for _, s := range e.table {
		out = append(out, s...)
	}
	out = append(out, e.b...)
	if uint64(blob) > math.MaxUint32 || uint64(len(e.table)) > math.MaxUint32 {
		return nil, errors.New("index too large for the cache")
	}
	copy(out, indexCacheMagic)
	le.PutUint64(out[8:], uint64(generation))
	le.PutUint64(out[16:], uint64(len(out)-indexCacheHeader))
	crc := crc32.Update(crc32.Checksum(out[:24], castagnoli), castagnoli, out[indexCacheHeader:])
	le.PutUint32(out[24:], crc)
	return out, nil
}

var errBadIndexCache = errors.New("index cache: malformed")

// idxDecoder reads the payload, remembering the first error.
type idxDecoder struct {
	b     []byte
	table []string
	err   error
}

func (d *idxDecoder) fail() {
	if d.err == nil {
		d.err = errBadIndexCache
	}
	d.b = nil
}

func (d *idxDecoder) uint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

// count reads a length each of whose items takes at least one byte.
func (d *idxDecoder) count() int {
	v := d.uint()
	if v > uint64(len(d.b)) {
		d.fail()
		return 0
	}
	return int(v)
}

func (d *idxDecoder) int() int {
	v, n := binary.Varint(d.b)
	if n <= 0 || v < math.MinInt || v > math.MaxInt {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

func (d *idxDecoder) float() float64 {
	if len(d.b) < 8 {
		d.fail()
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	return v
}

func (d *idxDecoder) bool() bool {
	if len(d.b) < 1 || d.b[0] > 1 {
		d.fail()
		return false
	}
	v := d.b[0] == 1
	d.b = d.b[1:]
	return v
}

func (d *idxDecoder) str() string {
	n := d.uint()
	if n >= uint64(len(d.table)) {
		d.fail()
		return ""
	}
	return d.table[n]
}

// strs cuts string slices from one arena (each capped, so an append
// reallocates).
func (d *idxDecoder) strs(arena *[]string) []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	if len(*arena) < n {
		*arena = make([]string, max(n, 4096))
	}
	out := (*arena)[:n:n]
	*arena = (*arena)[n:]
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func (d *idxDecoder) time() time.Time {
	n := d.count()
	if n == 0 {
		return time.Time{}
	}
	var t time.Time
	if err := t.UnmarshalBinary(d.b[:n]); err != nil {
		d.fail()
		return time.Time{}
	}
	d.b = d.b[n:]
	return t
}

// decodeIndexCache returns the index encoded in b at generation, with the
// concepts in the snapshot's order.
func decodeIndexCache(b []byte, generation int64) (*Graph, []model.Concept, error) {
	le := binary.LittleEndian
	if len(b) < indexCacheHeader+4 || string(b[:8]) != indexCacheMagic || (int64(le.Uint64(b[8:])) != generation && generation != AnyGeneration) ||
		le.Uint64(b[16:]) != uint64(len(b)-indexCacheHeader) || le.Uint32(b[28:]) != 0 ||
		crc32.Update(crc32.Checksum(b[:24], castagnoli), castagnoli, b[indexCacheHeader:]) != le.Uint32(b[24:]) {
		return nil, nil, errBadIndexCache
	}
	p := b[indexCacheHeader:]
	n := uint64(le.Uint32(p))
	if n == 0 || n > uint64(len(p))/4 {
		return nil, nil, errBadIndexCache
	}
	ends := p[4 : 4+4*n]
	blobLen := uint64(le.Uint32(ends[4*(n-1):]))
	if 4+4*n+blobLen > uint64(len(p)) {
		return nil, nil, errBadIndexCache
	}
	blob := string(p[4+4*n : 4+4*n+blobLen])
	d := &idxDecoder{b: p[4+4*n+blobLen:], table: make([]string, n)}
	start := uint64(0)
	for i := range d.table {
		end := uint64(le.Uint32(ends[4*i:]))
		if end < start || end > blobLen {
			return nil, nil, errBadIndexCache
		}
		d.table[i] = blob[start:end]
		start = end
	}
	if d.table[0] != "" {
		return nil, nil, errBadIndexCache
	}

	ix := NewGraph()
	facts := d.count()
	if d.err != nil || json.Unmarshal(d.b[:facts], &ix.Saved) != nil {
		return nil, nil, errBadIndexCache
	}
	d.b = d.b[facts:]
	ix.Saved.Generation = int64(le.Uint64(b[8:]))
	var strArena []string
	docs := make([]model.Document, d.count())
	ix.Docs, ix.DocByKey = make(map[string]*model.Document, len(docs)), make(map[string]string, len(docs))
	for i := range docs {
		doc := &docs[i]
		doc.ID, doc.Key, doc.Path, doc.Collection, doc.Format, doc.Title, doc.Hash = d.str(), d.str(), d.str(), d.str(), d.str(), d.str(), d.str()
		doc.Bytes = d.int()
		doc.Ingested = d.time()
		doc.Modified = d.time()
		doc.Groups = d.strs(&strArena)
		if meta := d.str(); meta != "" && json.Unmarshal([]byte(meta), &doc.Meta) != nil {
			return nil, nil, errBadIndexCache
		}
		doc.Reader = d.int()
		ix.Docs[doc.ID] = doc
		ix.DocByKey[doc.Key] = doc.ID
	}
	entries := d.count()
	ix.DocNodes = make(map[string][]string, entries)
	for range entries {
		id := d.str()
		ix.DocNodes[id] = d.strs(&strArena)
	}
	nodes := make([]model.ContentNode, d.count())
	ix.Nodes = make(map[string]*model.ContentNode, len(nodes))
	for i := range nodes {
		nd := &nodes[i]
		nd.ID, nd.DocID, nd.Ref = d.str(), d.str(), d.str()
		nd.Ancestors, nd.HeadingPath = d.strs(&strArena), d.strs(&strArena)
		nd.LineStart, nd.LineEnd, nd.Ordinal, nd.Part, nd.Parts = d.int(), d.int(), d.int(), d.int(), d.int()
		nd.ContentHash, nd.Kind, nd.ContentType = d.str(), model.Kind(d.str()), d.str()
		nd.Complexity = d.float()
		nd.Tokens = d.int()
		nd.Created, nd.LastAccess = d.time(), d.time()
		nd.Provenance, nd.Parent, nd.NearMiss = d.str(), d.str(), d.str()
		nd.NearMissSim = d.float()
		nd.Pinned = d.bool()
		nd.Source, nd.Level = d.str(), d.str()
		nd.PageStart, nd.PageEnd = d.int(), d.int()
		if sym := d.str(); sym != "" {
			nd.Symbol = new(model.Symbol)
			if json.Unmarshal([]byte(sym), nd.Symbol) != nil {
				return nil, nil, errBadIndexCache
			}
		}
		ix.Nodes[nd.ID] = nd
	}
	concepts := make([]model.Concept, d.count())
	ix.Concepts = make(map[string]*model.Concept, len(concepts))
	for i := range concepts {
		c := &concepts[i]
		c.ID, c.Name, c.Description = d.str(), d.str(), d.str()
		c.Created = d.time()
		c.Seed = d.str()
	}
	// The index gets its own copies: the returned slice is read by the
	// linker, the index's concepts are changed in place.
	own := slices.Clone(concepts)
	for i := range own {
		ix.Concepts[own[i].ID] = &own[i]
	}
	edges := make([]model.Edge, d.count())
	groups := d.count()
	ix.Out = make(map[string][]model.Edge, groups)
	at := 0
	for range groups {
		from := d.str()
		k := d.count()
		if k > len(edges)-at || d.err != nil {
			return nil, nil, errBadIndexCache
		}
		group := edges[at : at+k : at+k]
		at += k
		for i := range group {
			e := &group[i]
			e.From = from
			e.Kind, e.To = model.EdgeKind(d.str()), d.str()
			e.Weight = d.float()
			e.Direction = d.str()
			e.Created = d.time()
			if e.Kind == model.EdgeAbout {
				ix.AboutCount[e.To]++
			}
			if e.Kind.SymbolEdge() {
				ix.SymbolIn[e.To] = append(ix.SymbolIn[e.To], from)
			}
		}
		ix.Out[from] = group
	}
	if d.err != nil || len(d.b) != 0 || at != len(edges) || len(ix.Nodes) != len(nodes) || len(ix.Docs) != len(docs) || len(ix.DocNodes) != entries ||
		len(ix.Concepts) != len(concepts) || len(ix.Out) != groups {
		return nil, nil, errBadIndexCache
	}
	return ix, concepts, nil
}
