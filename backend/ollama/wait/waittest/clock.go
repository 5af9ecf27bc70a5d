// Package waittest provides a wait.Clock for tests: its time moves only
// when the test moves it, so a test of a request that Ollama never answers
// can end only at the request's limit, whatever the machine's load, and
// never sleeps.
//
//	clock := waittest.NewClock()
//	… start a request against a fake Ollama that never answers, with
//	   wait.Options{Clock: clock} …
//	stop := clock.Drive(time.Second) // once nothing more can arrive
//	defer stop()
package waittest

import (
	"sync"
	"time"

	"github.com/loomwork/loom/backend/ollama/wait"
)

// Clock is a wait.Clock driven by the test. Every ticker it makes shares
// one channel, which only Tick and Drive send on, so the watch of whatever
// request is waiting takes the tick.
type Clock struct {
	mu    sync.Mutex
	now   time.Time
	ticks chan time.Time
}

var _ wait.Clock = (*Clock)(nil)

// NewClock returns a clock standing at a fixed instant.
func NewClock() *Clock {
	return &Clock{now: time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC), ticks: make(chan time.Time)}
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// NewTicker returns the shared tick channel; d is ignored, since the test
// decides when ticks come.
func (c *Clock) NewTicker(time.Duration) (<-chan time.Time, func()) { return c.ticks, func() {} }

// Advance moves the clock on by d without a tick.
func (c *Clock) Advance(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	return c.now
}

// Tick moves the clock on by d and blocks until a watch takes the tick.
// Call it only while a watch is running, or it waits for the next one.
func (c *Clock) Tick(d time.Duration) { c.ticks <- c.Advance(d) }

// Drive moves the clock on by step at every tick a watch takes, in its own
// goroutine, until stop is called. Start it only once the request under
// test can get nothing more from the server: any watch running meanwhile
// sees time fly.
func (c *Clock) Drive(step time.Duration) (stop func()) {
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		for {
			select {
			case c.ticks <- c.Advance(step):
			case <-done:
				return
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(done) })
		<-exited
	}
}
