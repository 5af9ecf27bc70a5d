// Package crash lets a test kill the process at a named step of a write,
// to prove that an interruption at any moment leaves a workspace that
// opens and holds whole documents (cmd/loom's crash test runs the CLI
// hundreds of times this way).
//
// With LOOM_CRASH_AT=step (or step#n, the n-th time the step is reached,
// counting from 1) the process kills itself with SIGKILL when it reaches
// that step: no deferred function, no buffered write, no Close runs, as
// with kill -9 or a power cut seen from the files' side. With
// LOOM_CRASH_TRACE=file every step reached is appended to the file, one
// name a line, so a test can learn which steps an operation passes
// through and pick where to stop it. Unset, At costs one atomic load.
//
// The steps are named where they are: At("ingest-after-texts").
package crash

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// EnvAt and EnvTrace are the environment variables read once, at start.
const (
	EnvAt    = "LOOM_CRASH_AT"
	EnvTrace = "LOOM_CRASH_TRACE"
)

type plan struct {
	step  string
	nth   int64
	seen  atomic.Int64
	trace *os.File
	mu    sync.Mutex // orders trace lines
}

var armed atomic.Pointer[plan]

func init() {
	at, trace := os.Getenv(EnvAt), os.Getenv(EnvTrace)
	if at == "" && trace == "" {
		return
	}
	p := &plan{nth: 1}
	p.step = at
	if i := strings.LastIndexByte(at, '#'); i > 0 {
		if n, err := strconv.ParseInt(at[i+1:], 10, 64); err == nil && n > 0 {
			p.step, p.nth = at[:i], n
		}
	}
	if trace != "" {
		if f, err := os.OpenFile(trace, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644); err == nil {
			p.trace = f
		}
	}
	armed.Store(p)
}

// At marks a step of a write. It kills the process when LOOM_CRASH_AT
// names this step (and its count), and records it with LOOM_CRASH_TRACE.
func At(step string) {
	p := armed.Load()
	if p == nil {
		return
	}
	if p.trace != nil {
		p.mu.Lock()
		p.trace.WriteString(step + "\n")
		p.mu.Unlock()
	}
	if step == p.step && p.seen.Add(1) == p.nth {
		kill()
	}
}
