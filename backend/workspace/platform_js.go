//go:build js

package workspace

// cachesOnPersist: the web edition's engine is never closed (the page just
// goes away), so the caches are written whenever the background persist
// commits, not only after ingest and on Close; they are small there.
const cachesOnPersist = true
