// Package classify tells what shape a piece of text has — a question, prose,
// code, logs, pasted data, JSON/XML, or a mixture — without calling a model.
//
// Loom runs it twice: on every unit it ingests (a markdown section, a
// paragraph, a pasted text) and on every query. The result decides how the
// text is stored and, through Classification.Complexity, how much of the
// context window is reserved for the answer. Split implements the chunking of
// seed §7.2: a long input made of structurally different parts (a question
// followed by a pasted log) becomes separate units, each with its own
// Classification and its byte range in the original.
//
// Everything here is rule-based and deterministic: a few passes over the
// text with hand-written byte matchers (no regular expressions), so a
// 200-byte query is classified in a few microseconds and 100 KB in a
// millisecond or two. Classify never panics, whatever the input (invalid
// UTF-8, binary, CRLF line endings, one 100 KB line).
//
// See ExampleClassify and ExampleSplit.
//
// # Type precedence
//
// Every non-blank line gets a kind — prose (paragraphs, headings, lists,
// tables), code, logs (log records, stack frames), data, structured (JSON
// blocks, XML/HTML markup) — from its own shape and, where that is unclear,
// from its neighbours; every line of a fenced block takes the kind that
// dominates the block. The type follows from the share of non-blank bytes
// each kind holds, in this order — the first rule that matches wins:
//
//  1. Nothing but whitespace: TypeProse with complexity 0.
//  2. The whole text is a JSON value (object or array, possibly truncated) or
//     an XML/HTML document: TypeStructured.
//  3. No words at all, or more than 25% control/invalid bytes: TypePastedData.
//  4. The prose part reads as a query (see below), opens or closes the text,
//     and at least 25% of the bytes are not prose: TypeMixed (a question
//     with a paste).
//  5. One non-prose kind holds at least 60%: TypeLogs (log lines and stack
//     frames), TypeCode, TypeStructured or TypePastedData.
//  6. Prose holds at least half: TypeSimpleQuery or TypeComplexQuery when the
//     text reads as a query, TypeProse otherwise.
//  7. Anything else (no kind dominates): TypeMixed.
//
// The prose part reads as a query when it is short (WithMaxQueryBytes,
// default 1024 bytes), has no markdown heading, and either its last sentence
// is a question, at least half its sentences are questions, or it opens with
// a request verb ("explain", "compare", "list"...) in at most three sentences.
// A sentence is a question when it ends in '?' or opens with an interrogative
// (who, what, how, is, can, does...) and does not end in '.'. A query is
// complex when it has two or more questions, two or more list items, a
// multi-part cue ("compare", "versus", "as well as", "pros", "additionally"...)
// or more than 40 words.
//
// # Complexity
//
// Complexity is a weighted sum of five measures, each in [0,1]:
//
//	length      L = log2(1+words) / log2(1+4096)                 (capped at 1)
//	diversity   D = (unique / sqrt(words)) / 12                  (Guiraud's R, capped)
//	wording     W = ½·clamp((avgWordLen−3)/4) + ½·clamp(syllablesPerWord−1)
//	parts       P = parts / 5 (capped), parts = question sentences, plus
//	                request sentences, list items and multi-part cues when
//	                the text reads as a query
//	mixture     M = 0 for one kind, 0.75 for two, 1 for three or more kinds
//	                holding ≥5% of the bytes (a query's prose always counts);
//	                1 for a question over a paste (TypeMixed with a query)
//
//	Complexity = 0.30·L + 0.10·D + 0.10·W + 0.25·P + 0.25·M
//
// so "What is X?" scores about 0.1, a five-part analytic question about 0.5,
// and a question over a long pasted log about 0.6.
//
// # Splitting
//
// Split (and Classification.Chunk) only act on texts longer than the chunk
// threshold (WithChunkThreshold, default 1200 bytes). The lines are grouped
// into paragraphs (ended by a blank line or a change of kind) and paragraphs
// of one kind into groups. A group stands as its own unit when it holds at
// least WithMinUnitBytes non-blank bytes (default 200) or, for prose, asks a
// question or makes a request; other groups fold into the unit before them
// (leading ones into the unit after). Blank lines stay with the text above
// them, so units cover the input exactly.
package classify
