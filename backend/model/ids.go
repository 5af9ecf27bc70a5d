package model

import (
	"crypto/sha256"
	"encoding/hex"
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
