package backend

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/loomwork/loom/backend/storage"
)

// PendingReembedFile, in a workspace folder, names the embedder the
// workspace is to be re-embedded with in the background: a new workspace
// that started on the offline table (Config.StartOnTable) holds
// MiniLMTarget there until the full encoder has re-embedded it, or the
// person has chosen otherwise (cancelled that re-embed, or re-embedded with
// something else).
const PendingReembedFile = "reembed-pending"

// PendingReembed is the target written in dir's PendingReembedFile ("":
// none, or it cannot be read).
func PendingReembed(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, PendingReembedFile))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// SetPendingReembed writes target to dir's PendingReembedFile (atomically:
// an interrupted write leaves the old file or none).
func SetPendingReembed(dir, target string) error {
	return storage.WriteFileAtomic(filepath.Join(dir, PendingReembedFile), []byte(target+"\n"))
}

// ClearPendingReembed removes dir's PendingReembedFile (none is fine).
func ClearPendingReembed(dir string) error {
	err := os.Remove(filepath.Join(dir, PendingReembedFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}
