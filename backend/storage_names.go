package backend

import "github.com/loomwork/loom/backend/storage"

// Names of the workspace's storage (backend/storage) that the engine's
// callers use.
const (
	// SnapshotFile is the file that keeps the graph where bolt does not
	// build (the browser edition).
	SnapshotFile = storage.SnapshotFile
	// GraphDir is the folder of the bolt store.
	GraphDir = storage.GraphDir
	// PackFile keeps the texts of summaries and essences.
	PackFile = storage.PackFile
)

// ErrInUse: another process holds the workspace for writing. ErrReadOnly:
// a write to a workspace open read-only.
var (
	ErrInUse    = storage.ErrInUse
	ErrReadOnly = storage.ErrReadOnly
)

type (
	// DamagedError is a workspace file that cannot be read (storage).
	DamagedError = storage.DamagedError
	// TextError is a stored text that is missing or damaged (storage).
	TextError = storage.TextError
)
