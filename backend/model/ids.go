package model

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Ids are stable hashes (graphdb/SCHEMA.md), so the same notes get the
// same ids on every machine, and in the web edition, which has no absolute
// paths.

// DocumentID names a document by its collection and reference path.
func DocumentID(collection, path string) string { return "d-" + ShortHash(collection, path) }

// ShortHash is the first 16 hex digits of the SHA-256 of parts, each
// followed by a zero byte.
func ShortHash(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// LastHeading is the deepest heading of a heading path ("" for none).
func LastHeading(headingPath []string) string {
	if len(headingPath) == 0 {
		return ""
	}
	return headingPath[len(headingPath)-1]
}

// idLetters write a content node id's hex digits in a prompt, one letter
// for each digit in order (0 → e, 1 → t, … f → p): "n-8f48" is written
// "hpih". Hex digits mixed with letters cost a tokenizer a token for
// nearly every character (cl100k: "[n-8f48]" is 6 tokens); a run of
// common letters costs about half (4), and blocks, manifests and answers
// write an id many times. The map keeps prefixes: a prefix of the letters
// is the letters of a prefix of the id, so a shortened id stays one.
const idLetters = "etaoinsrhldcumkp"

// hexDigits are the digits of an id's hash, in order (ShortHash).
const hexDigits = "0123456789abcdef"

// PromptID is how a prompt writes a content node's id or a prefix of it
// ("n-" and hex digits): its digits as letters, without the "n-". Any
// other id (a concept's, a test's) is written as it is.
func PromptID(id string) string {
	hexPart, ok := strings.CutPrefix(id, "n-")
	if !ok || hexPart == "" {
		return id
	}
	b := make([]byte, len(hexPart))
	for i := range len(hexPart) {
		v := strings.IndexByte(hexDigits, hexPart[i])
		if v < 0 {
			return id
		}
		b[i] = idLetters[v]
	}
	return string(b)
}

// FromPromptID is the id (or id prefix) a prompt's letters stand for:
// "hpih" → "n-8f48"; ok is false when s is not letters of idLetters
// (case aside).
func FromPromptID(s string) (id string, ok bool) {
	if s == "" {
		return "", false
	}
	b := make([]byte, 0, len(s)+2)
	b = append(b, "n-"...)
	for i := range len(s) {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		v := strings.IndexByte(idLetters, c)
		if v < 0 {
			return "", false
		}
		b = append(b, hexDigits[v])
	}
	return string(b), true
}

// IsHashID tells an id made by ShortHash with its kind's prefix ("n-" and
// 16 hex digits for a content node).
func IsHashID(id string) bool {
	_, h, ok := strings.Cut(id, "-")
	if !ok || len(h) != 16 {
		return false
	}
	for i := range len(h) {
		if strings.IndexByte(hexDigits, h[i]) < 0 {
			return false
		}
	}
	return true
}
