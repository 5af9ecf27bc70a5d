package storage

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// HolderFile names the process that holds a workspace for writing, so that
// another process refused the workspace can say which one holds it: a line
// written when a writer opens the graph store ("loom watch, pid 4242, since
// 2026-11-24 19:40"). It is only read while the store's lock is held, so
// one left behind by a process that ended says nothing wrong.
const HolderFile = "holder"

// Holder is how this process names itself in HolderFile: its program and
// command ("loom watch"), or what a program sets (the desktop app: "the
// Loom desktop app").
var Holder = defaultHolder()

func defaultHolder() string {
	if len(os.Args) == 0 {
		return "a Loom process"
	}
	name := strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe")
	if len(os.Args) > 1 && !strings.HasPrefix(os.Args[1], "-") {
		name += " " + os.Args[1]
	}
	return name
}

// writeHolder records this process as the workspace's writer (best
// effort: a workspace that cannot hold the line still works).
func writeHolder(dir string, now time.Time) {
	line := fmt.Sprintf("%s, pid %d, since %s\n", Holder, os.Getpid(), now.Format("2006-01-02 15:04"))
	_ = WriteFileAtomic(filepath.Join(dir, HolderFile), []byte(line))
}

// inUse is ErrInUse naming the holder when the workspace says who it is.
func inUse(dir string) error {
	b, err := os.ReadFile(filepath.Join(dir, HolderFile))
	who := strings.TrimSpace(string(b))
	if err != nil || who == "" || len(who) > 300 {
		return ErrInUse
	}
	return &InUseError{Holder: who}
}

// InUseError is ErrInUse with the holder named.
type InUseError struct{ Holder string }

func (e *InUseError) Error() string {
	return "the workspace is in use by another Loom process — " + e.Holder + " (close it, or use another --workspace)"
}

// Is makes errors.Is(err, ErrInUse) hold.
func (e *InUseError) Is(target error) bool { return target == ErrInUse }

// Unwrap gives ErrInUse, whose code (errs.InUse) callers read.
func (e *InUseError) Unwrap() error { return ErrInUse }
