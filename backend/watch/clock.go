package watch

import (
	"sort"
	"sync"
	"time"
)

// Clock is the watcher's time: its quiet period, its longest delay and its
// rescan interval are timers of a Clock, so tests drive a FakeClock and
// never sleep.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f (in a goroutine of its own, or synchronously from a
	// fake clock's Advance) once d has passed; stop cancels it and reports
	// whether it did so before f was called.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

// RealClock is the wall clock.
type RealClock struct{}

func (RealClock) Now() time.Time { return time.Now() }

func (RealClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}

// FakeClock is a Clock that moves only when told to. Advance calls the
// functions of the timers that come due, in the order of their deadlines,
// from the caller's goroutine, and returns once they have returned: the
// watcher's timer functions hand their tick to the watcher's loop and wait
// until the loop has taken it, so when Advance returns the loop has seen
// every tick that came due.
type FakeClock struct {
	mu     sync.Mutex
	now    time.Time
	seq    int
	timers map[int]*fakeTimer
}

type fakeTimer struct {
	id   int
	when time.Time
	f    func()
}

// NewFakeClock starts a fake clock at start.
func NewFakeClock(start time.Time) *FakeClock {
	return &FakeClock{now: start, timers: map[int]*fakeTimer{}}
}

func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *FakeClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	id := c.seq
	c.timers[id] = &fakeTimer{id: id, when: c.now.Add(d), f: f}
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		_, ok := c.timers[id]
		delete(c.timers, id)
		return ok
	}
}

// Pending is how many timers are armed.
func (c *FakeClock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

// Advance moves the clock on by d, firing the timers that come due.
func (c *FakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		var due []*fakeTimer
		for _, t := range c.timers {
			if !t.when.After(end) {
				due = append(due, t)
			}
		}
		if len(due) == 0 {
			c.now = end
			c.mu.Unlock()
			return
		}
		sort.Slice(due, func(i, j int) bool {
			if !due[i].when.Equal(due[j].when) {
				return due[i].when.Before(due[j].when)
			}
			return due[i].id < due[j].id
		})
		t := due[0]
		delete(c.timers, t.id)
		if t.when.After(c.now) {
			c.now = t.when
		}
		c.mu.Unlock()
		t.f() // may arm new timers, which fire in this Advance if due
	}
}
