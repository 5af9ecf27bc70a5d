// Package offline is Loom's built-in embedder: the sentence encoder
// all-MiniLM-L6-v2 (backend/embed/minilm) distilled into a static table of
// token vectors in the manner of Model2Vec (Tulkens and van Dongen, "Model2Vec:
// Distill a Small Fast Model from any Sentence Transformer", 2024). It needs
// no network and no model server, and embeds a question in microseconds,
// where the encoder itself takes tens of milliseconds.
//
//	e, err := offline.New() // the table compiled into the binary
//	if err != nil { ... }   // ErrTableMissing: run `bash scripts/embeddings.sh`
//	vecs, err := e.Embed(ctx, []string{"Insulin regulates blood glucose."})
//
// # How a text becomes a vector
//
//  1. Tokenise as MiniLM does (minilm.Tokenizer: BERT's uncased
//     normalisation and WordPiece), without [CLS], [SEP] or the encoder's
//     cut at 256 tokens.
//  2. Sum the pieces' rows; each row already carries its token's weight.
//  3. Scale to unit length.
//
// A text without any piece that has a row (the empty string, only [UNK])
// gets a deterministic vector hashed from its character trigrams instead,
// never NaN and never zero.
//
// # The table
//
// scripts/embeddings.sh runs tools/mkembed, which calls Distil on the
// weights scripts/minilm.sh fetched: each of the vocabulary's 29,523 tokens
// (all but [PAD], [CLS], [SEP], [MASK], [UNK] and the [unusedN]) goes
// through the encoder once as [CLS] tok [SEP], and the token's own output
// row becomes its vector. The rows are centred and projected on their first
// 256 principal components (95% of the variance), and each is weighted
// a/(a+p) with a = 1e-4 and p from Zipf's law on the token's rank in the
// vocabulary (BERT's vocabulary lists characters first, then words and
// pieces in roughly descending frequency: "." weighs 0.015, "the" 0.5,
// "protein" 0.8, "insulin" 0.95). Rows are stored as int8 with one scale each (mean
// cosine to the floats 0.99994) in an 8.3 MB file described in table.go,
// whose header carries the embedder's ID and the weights' sha256.
//
// Measured against the GloVe-SIF table it replaced (BENCHMARKS.md): vector
// search alone on SciFact's train claims 0.454 nDCG@10 against 0.288
// (MiniLM itself: about 0.65); the mean of the three output rows instead of
// the token's own scored 0.431, 128 dimensions 0.412, 384 dimensions 0.460
// in a 50% larger table; no weighting 0.36; SIF weights from GloVe's word
// frequencies 0.33 (punctuation, absent from GloVe's list, then weighs
// fully).
//
// The vectors know nothing of word order, so pair them with keyword search.
//
// The WebAssembly build (GOOS=js) does not compile the table in: it fetches
// the file and calls FromBytes.
package offline
