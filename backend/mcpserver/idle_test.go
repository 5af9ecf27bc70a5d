package mcpserver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/loomwork/loom/backend/watch"
)

// The idle clock of sessions, on a fake clock: it starts when the last
// request in flight ends, a request stops it, a timer that lost its race
// with a request closes nothing, and a session closed by its client is
// forgotten.
func TestIdleSessions(t *testing.T) {
	clk := watch.NewFakeClock(time.Unix(1_700_000_000, 0))
	var closed []string
	idle := &idleSessions{timeout: time.Minute, afterFunc: clk.AfterFunc, close: func(id string) { closed = append(closed, id) }, sessions: map[string]*idleSession{}}

	idle.opened("a") // initialize being answered
	assert.True(t, idle.begin("a"), "its first notification, before the initialize is sent")
	idle.end("a")
	clk.Advance(2 * time.Minute)
	assert.Empty(t, closed, "the initialize is still being answered")
	idle.end("a")
	clk.Advance(59 * time.Second)
	assert.Empty(t, closed)

	assert.True(t, idle.begin("a")) // a long call
	clk.Advance(10 * time.Minute)
	assert.Empty(t, closed, "not while a request is answered")
	idle.end("a")
	clk.Advance(time.Minute)
	assert.Equal(t, []string{"a"}, closed)
	assert.False(t, idle.begin("a"), "forgotten once closed")
	assert.Zero(t, clk.Pending())

	idle.opened("b")
	idle.end("b")
	idle.forget("b") // its client closed it (DELETE)
	assert.Zero(t, clk.Pending())
	clk.Advance(time.Hour)
	assert.Equal(t, []string{"a"}, closed)
	assert.False(t, idle.begin("unknown"))
	idle.end("unknown")
	assert.Zero(t, clk.Pending())
}
