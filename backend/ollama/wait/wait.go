// Package wait watches a request to a model server (Ollama, or an
// OpenAI-compatible one) while it waits for an answer, so
// that no wait is silent and none is endless. A [Watch] tells the person,
// through a notice callback, when nothing has arrived for Notice (10 s by
// default): what is being waited for, from which server and model, and how
// long Loom will wait at most. A silence of Stall (30 s) is reported as
// stalled — the model may be loading or stuck — and again every Stall after
// that. When the silence reaches the request's limit the watch cancels the
// request, and the caller turns that into its own typed error naming the
// server and the model.
//
// Silence is counted from the start of the request and again from every
// sign of life the caller reports with [Watch.Touch] (a streamed chunk), so
// a long answer that keeps streaming is never cut.
//
// It belongs to the model-server adapters (backend/ollama, backend/openai):
// every request an adapter makes — a chat stream, a model list or description, an embedding,
// a summary — waits through it, so the CLI, the desktop app and the web
// edition say the same thing at the same moments. It imports nothing of
// Loom's, so the domain packages can name a Notice (chat.Turn.OnWait)
// without depending on the adapter. Its time comes from a [Clock]; tests inject
// waittest.Clock, whose ticks they drive, so that no test outcome depends
// on how fast the machine is.
//
//	ctx, w := wait.Start(ctx, wait.Options{}, wait.Request{URL: base, Model: "llama3.2",
//		Task: "answer with model llama3.2", Limit: 5 * time.Minute, Notify: show})
//	err := client.Chat(ctx, req, func(r api.ChatResponse) error { w.Touch(); … })
//	w.Stop()
//	if w.GaveUp() { … a typed timeout error … }
package wait

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults for Options.
const (
	// DefaultNotice is how long a wait may stay silent before the person
	// is told about it.
	DefaultNotice = 10 * time.Second
	// DefaultStall is how long a silence lasts before it is reported as
	// stalled; the report is repeated every DefaultStall.
	DefaultStall = 30 * time.Second
)

// ErrSilent is the cause of a request context that a Watch cancelled
// because nothing arrived within the limit.
var ErrSilent = errors.New("nothing arrived from the model server within the limit")

// Clock is the watch's source of time.
type Clock interface {
	Now() time.Time
	// NewTicker returns a channel that ticks every d, and a function that
	// stops it.
	NewTicker(d time.Duration) (ticks <-chan time.Time, stop func())
}

// RealClock is the system clock.
type RealClock struct{}

// Now returns time.Now().
func (RealClock) Now() time.Time { return time.Now() }

// NewTicker wraps time.NewTicker.
func (RealClock) NewTicker(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTicker(d)
	return t.C, t.Stop
}

// Options are when a waiting request speaks up. The zero value means the
// defaults and the system clock.
type Options struct {
	// Notice is the first notice's silence (0: DefaultNotice).
	Notice time.Duration
	// Stall is the silence reported as stalled, repeated every Stall
	// (0: DefaultStall).
	Stall time.Duration
	// Clock is the time source (nil: RealClock).
	Clock Clock
}

func (o Options) withDefaults() Options {
	if o.Notice <= 0 {
		o.Notice = DefaultNotice
	}
	if o.Stall <= 0 {
		o.Stall = DefaultStall
	}
	if o.Clock == nil {
		o.Clock = RealClock{}
	}
	return o
}

// Request is what one watch waits for.
type Request struct {
	// Server names the model server for the person ("Ollama", "LM
	// Studio"; "" is Ollama), URL is its address and Model the model
	// involved ("" if none).
	Server     string
	URL, Model string
	// Task completes "waiting for Ollama to …", e.g. "embed 64 texts with
	// model nomic-embed-text".
	Task string
	// Limit is the silence after which the request is cancelled; 0 or less
	// means never (only the caller's context ends it).
	Limit time.Duration
	// Notify receives the notices (may be nil). It is called from the
	// watch's own goroutine, one notice at a time, never after Stop has
	// returned; it should not block.
	Notify func(Notice)
}

// Notice says that a request has heard nothing from the model server for a
// while.
type Notice struct {
	// Server names the model server ("" is Ollama).
	Server string `json:"server,omitempty"`
	URL    string `json:"url"`
	Model  string `json:"model,omitempty"`
	Task   string `json:"task"`
	// Silent is how long nothing has arrived: a mark (10 s, 30 s, 1 min,
	// …), not a measurement, so the same wait always reads the same.
	Silent time.Duration `json:"silent_ns"`
	// Limit is the silence at which the request will be given up (0: it
	// will not be).
	Limit time.Duration `json:"limit_ns"`
	// Stalled: the silence has reached the stall mark; the model may be
	// loading or stuck.
	Stalled bool `json:"stalled"`
	// Midstream: something had arrived before this silence (a stream that
	// stopped), rather than nothing at all yet.
	Midstream bool `json:"midstream"`
	// Message is the notice as a sentence for the person.
	Message string `json:"message"`
}

// Watch watches one request. Make it with Start.
type Watch struct {
	opts   Options
	req    Request
	cancel context.CancelCauseFunc
	done   chan struct{} // closed by Stop
	exited chan struct{} // closed when the goroutine ends
	once   sync.Once
	gaveUp atomic.Bool

	mu        sync.Mutex
	last      time.Time     // when something last arrived (or the start)
	next      time.Duration // the silence of the next notice
	midstream bool
}

// Start watches a request made under the returned context, which is
// cancelled with cause ErrSilent once nothing has arrived for req.Limit.
// Call Touch whenever something arrives and Stop when the request is over.
func Start(ctx context.Context, opts Options, req Request) (context.Context, *Watch) {
	o := opts.withDefaults()
	reqCtx, cancel := context.WithCancelCause(ctx)
	w := &Watch{opts: o, req: req, cancel: cancel, done: make(chan struct{}), exited: make(chan struct{}),
		last: o.Clock.Now(), next: o.Notice}
	ticks, stop := o.Clock.NewTicker(tickEvery(o, req.Limit))
	go w.run(reqCtx, ticks, stop)
	return reqCtx, w
}

// tickEvery checks a tenth as often as the shortest mark, between 1 ms and
// 1 s: a notice or the give-up comes at most a tenth (or a second) late.
func tickEvery(o Options, limit time.Duration) time.Duration {
	d := min(o.Notice, o.Stall)
	if limit > 0 {
		d = min(d, limit)
	}
	return min(max(d/10, time.Millisecond), time.Second)
}

// Touch says that something arrived: the silence starts again, and so do
// the notices.
func (w *Watch) Touch() {
	w.mu.Lock()
	w.last = w.opts.Clock.Now()
	w.next = w.opts.Notice
	w.midstream = true
	w.mu.Unlock()
}

// Stop ends the watch and releases its context; after it returns no notice
// is sent. It may be called more than once.
func (w *Watch) Stop() {
	w.once.Do(func() { close(w.done) })
	<-w.exited
	w.cancel(context.Canceled)
}

// GaveUp reports whether the watch cancelled the request because nothing
// arrived within the limit.
func (w *Watch) GaveUp() bool { return w.gaveUp.Load() }

func (w *Watch) run(ctx context.Context, ticks <-chan time.Time, stop func()) {
	defer close(w.exited)
	defer stop()
	for {
		select {
		case <-w.done:
			return
		case <-ctx.Done():
			return
		case now := <-ticks:
			if w.check(now) {
				w.gaveUp.Store(true)
				w.cancel(ErrSilent)
				return
			}
		}
	}
}

// check sends every notice the silence has reached at now, the tick's
// time, in order, and reports whether the limit is reached. One goroutine
// does both, so the notices always come before the give-up, however late a
// tick is. The silence is measured at the tick, not when the watch gets to
// it: a clock that moved on meanwhile is the next tick's business (a test's
// clock moves on as soon as the tick is taken).
func (w *Watch) check(now time.Time) (giveUp bool) {
	w.mu.Lock()
	silent := now.Sub(w.last)
	var due []Notice
	for w.next <= silent && (w.req.Limit <= 0 || w.next < w.req.Limit) {
		due = append(due, w.notice(w.next))
		w.next = nextMark(w.next, w.opts.Stall)
	}
	w.mu.Unlock()
	if w.req.Notify != nil {
		for _, n := range due {
			w.req.Notify(n)
		}
	}
	return w.req.Limit > 0 && silent >= w.req.Limit
}

// nextMark is the first multiple of stall after mark.
func nextMark(mark, stall time.Duration) time.Duration {
	return (mark/stall + 1) * stall
}

func (w *Watch) notice(silent time.Duration) Notice {
	n := Notice{Server: w.req.Server, URL: w.req.URL, Model: w.req.Model, Task: w.req.Task, Silent: silent, Limit: w.req.Limit,
		Stalled: silent >= w.opts.Stall, Midstream: w.midstream}
	n.Message = n.sentence()
	return n
}

func (n Notice) sentence() string {
	server := n.Server
	if server == "" {
		server = "Ollama"
	}
	if n.URL != "" {
		server += " at " + n.URL
	}
	limit := "waiting until it answers"
	if n.Limit > 0 {
		limit = "giving up after " + Human(n.Limit) + " of silence"
	}
	var b strings.Builder
	switch {
	case n.Midstream && n.Stalled:
		fmt.Fprintf(&b, "%s has sent nothing new for %s in the middle of its reply (asked to %s): it may be stuck; %s.", server, Human(n.Silent), n.Task, limit)
	case n.Midstream:
		fmt.Fprintf(&b, "%s has paused for %s in the middle of its reply (asked to %s); %s.", server, Human(n.Silent), n.Task, limit)
	case n.Stalled:
		fmt.Fprintf(&b, "%s has sent nothing for %s since it was asked to %s: the model may be loading or stuck; %s.", server, Human(n.Silent), n.Task, limit)
	default:
		fmt.Fprintf(&b, "Waiting for %s to %s: nothing yet after %s; %s.", server, n.Task, Human(n.Silent), limit)
	}
	return b.String()
}

// String returns the notice's sentence.
func (n Notice) String() string { return n.Message }

// Human writes a duration the way a person says it: "10 s", "5 min",
// "1 min 30 s", "150ms".
func Human(d time.Duration) string {
	switch {
	case d < time.Second || d%time.Second != 0:
		return d.String()
	case d < time.Minute:
		return fmt.Sprintf("%d s", d/time.Second)
	case d%time.Minute == 0:
		return fmt.Sprintf("%d min", d/time.Minute)
	default:
		return fmt.Sprintf("%d min %d s", d/time.Minute, (d%time.Minute)/time.Second)
	}
}
