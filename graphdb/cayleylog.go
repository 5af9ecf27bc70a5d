package graphdb

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/cayleygraph/cayley/clog"
)

// Cayley reports some read failures only to its log (Quad returns an empty
// quad, NameOf nil). Its default log writes to stderr, which a person
// running the CLI would see as noise; this one keeps the count and the
// last message, so that a read can tell it met such a failure and name it.
var (
	cayleyErrors  atomic.Int64
	cayleyLastMu  sync.Mutex
	cayleyLastMsg string
)

type quietLog struct{}

func (quietLog) Infof(string, ...any)    {}
func (quietLog) Warningf(string, ...any) {}
func (quietLog) Errorf(format string, args ...any) {
	cayleyLastMu.Lock()
	cayleyLastMsg = fmt.Sprintf(format, args...)
	cayleyLastMu.Unlock()
	cayleyErrors.Add(1)
}
func (quietLog) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }
func (quietLog) V(int) bool                        { return false }
func (quietLog) SetV(int)                          {}

func init() { clog.SetLogger(quietLog{}) }

// lastCayleyError is Cayley's last logged error if any was logged since
// the count was before.
func lastCayleyError(before int64) string {
	if cayleyErrors.Load() == before {
		return ""
	}
	cayleyLastMu.Lock()
	defer cayleyLastMu.Unlock()
	return cayleyLastMsg
}
