//go:build !js

package workspace

// cachesOnPersist: natively the caches are written after ingest and on
// Close (at 50k nodes search.cache is ~90 MB: not after every question).
const cachesOnPersist = false
