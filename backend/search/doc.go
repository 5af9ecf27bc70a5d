// Package search is the candidate-retrieval layer of Loom's query path:
// hybrid keyword (BM25) and vector (cosine) search over the in-memory
// working index, sized for 50,000 content nodes and more. On two cores a
// ten-term keyword query over 50,000 nodes takes about half a millisecond; a
// full cosine scan of 50,000 768-dimensional vectors about ten, which the
// low-dimensional sketch (sketch.go) cuts to about 1.5 (see
// search_bench_test.go and BENCHMARKS.md). Ranking, budgeting and graph expansion happen
// downstream; this package only finds and scores candidates.
//
// See Example for indexing, searching and fusing the two score lists.
//
// # Slots
//
// Both indexes address documents by slot, a small dense int32 that the
// caller assigns to each node id and reuses after a removal, instead of by
// node id. Slots let every per-document array (lengths, vector rows,
// scores) be a plain slice, let a query accumulate scores in a dense
// []float32 instead of a map, and let keyword and vector scores for the same
// node be fused position by position: Keyword.ScoreAll and Vectors.ScoreAll
// fill slices indexed alike, and TopK selects from any such slice.
//
// # Keyword search
//
// Terms turns text into index terms (bleve's English analysis: Unicode
// words, possessives stripped, lower case, stop words dropped, Porter stems).
// Keyword keeps a postings list of (slot, term frequency) per term, each
// document's length and distinct term ids, document frequencies and the
// collection's total length, all maintained as documents come and go, and
// scores with Okapi BM25:
//
//	score(d) = Σ_t idf(t) · tf·(k1+1) / (tf + k1·(1 − b + b·|d|/avgdl))
//	idf(t)   = ln(1 + (N − df + 0.5) / (df + 0.5))
//
// with DefaultBM25 = {K1: 0.9, B: 0.4}, Anserini's defaults: lighter length
// normalisation than the textbook 1.2/0.75, which suits nodes as uneven as a
// one-line heading and a long pasted log. The (k1+1) factor, which Lucene
// drops, only scales scores; rankings are the same.
//
// Removal is lazy: replacing or removing a document bumps its slot's
// generation, which retires all its postings at once, and the lists are
// compacted when more than a quarter of their postings are dead. Retired
// postings are never scored.
//
// # Vector search
//
// Vectors stores one embedder's vectors as L2-normalised rows of a single
// contiguous []float32, so cosine similarity against every node is one
// matrix-vector product: gonum's Sgemv (SIMD assembly on amd64, pure Go
// under WebAssembly), split across up to four goroutines for large
// matrices. At 768 dimensions that product reads 150 MB for 50,000 nodes and
// is bound by memory bandwidth rather than arithmetic, so above
// SketchMinRows rows of more than 128 dimensions the scan runs over a 64-d
// PCA sketch and rescores the best rows exactly.
//
// # Concurrency and persistence
//
// Keyword and Vectors are safe for concurrent use: searches share a read
// lock, writes take it exclusively. Both implement encoding.BinaryMarshaler
// and BinaryUnmarshaler for the on-disk index cache; a decoded index answers
// exactly as the original did, and malformed data yields an error wrapping
// ErrBadIndex. The keyword encoding is flat and checksummed (CRC-32C): a
// sorted term table and one posting array, which Keyword.UnmarshalShared
// can use in place; the decoded index stays in that form (terms found by
// binary search) until its first Set or Remove. Vectors.SetRows fills many
// rows at once, normalising them in parallel.
package search
