package wait_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/ollama/wait"
	"github.com/loomwork/loom/backend/ollama/wait/waittest"
)

// start watches a request to a fake server whose notices arrive on the
// returned channel.
func start(t *testing.T, clock wait.Clock, limit time.Duration) (context.Context, *wait.Watch, chan wait.Notice) {
	t.Helper()
	notices := make(chan wait.Notice, 64)
	ctx, w := wait.Start(context.Background(), wait.Options{Clock: clock}, wait.Request{
		URL: "http://127.0.0.1:11434", Model: "llama3.2", Task: "answer with model llama3.2", Limit: limit,
		Notify: func(n wait.Notice) { notices <- n },
	})
	t.Cleanup(w.Stop)
	return ctx, w, notices
}

func silences(ns []wait.Notice) []time.Duration {
	var out []time.Duration
	for _, n := range ns {
		out = append(out, n.Silent)
	}
	return out
}

func TestASilentRequestIsAnnouncedThenReportedStalledThenGivenUp(t *testing.T) {
	clock := waittest.NewClock()
	ctx, w, notices := start(t, clock, 2*time.Minute)

	clock.Tick(9 * time.Second)
	clock.Tick(time.Second) // 10 s: the first notice
	first := <-notices
	assert.Equal(t, 10*time.Second, first.Silent)
	assert.False(t, first.Stalled)
	assert.False(t, first.Midstream)
	assert.Equal(t, "Waiting for Ollama at http://127.0.0.1:11434 to answer with model llama3.2: nothing yet after 10 s; giving up after 2 min of silence.", first.Message)
	assert.Equal(t, first.Message, first.String())

	clock.Tick(20 * time.Second) // 30 s: stalled
	stalled := <-notices
	assert.True(t, stalled.Stalled)
	assert.Equal(t, "Ollama at http://127.0.0.1:11434 has sent nothing for 30 s since it was asked to answer with model llama3.2: the model may be loading or stuck; giving up after 2 min of silence.", stalled.Message)
	require.NoError(t, ctx.Err(), "not given up before the limit")

	// One late tick past everything: the notices still come in order, and
	// before the give-up.
	clock.Tick(5 * time.Minute)
	<-ctx.Done()
	assert.ErrorIs(t, context.Cause(ctx), wait.ErrSilent)
	assert.True(t, w.GaveUp())
	w.Stop()
	close(notices)
	var rest []wait.Notice
	for n := range notices {
		rest = append(rest, n)
	}
	assert.Equal(t, []time.Duration{time.Minute, 90 * time.Second}, silences(rest), "every 30 s after the stall, none at the limit")
}

func TestSomethingArrivingStartsTheSilenceAgain(t *testing.T) {
	clock := waittest.NewClock()
	ctx, w, notices := start(t, clock, time.Minute)
	clock.Tick(50 * time.Second)
	assert.Equal(t, []time.Duration{10 * time.Second, 30 * time.Second}, silences([]wait.Notice{<-notices, <-notices}))

	w.Touch() // a chunk: 50 s of silence no longer count
	clock.Tick(20 * time.Second)
	n := <-notices
	assert.Equal(t, 10*time.Second, n.Silent, "the notices start again")
	assert.True(t, n.Midstream)
	assert.Equal(t, "Ollama at http://127.0.0.1:11434 has paused for 10 s in the middle of its reply (asked to answer with model llama3.2); giving up after 1 min of silence.", n.Message)
	require.NoError(t, ctx.Err(), "70 s since the start, but only 20 s of silence")

	clock.Tick(10 * time.Second)
	n = <-notices
	assert.True(t, n.Stalled)
	assert.Equal(t, "Ollama at http://127.0.0.1:11434 has sent nothing new for 30 s in the middle of its reply (asked to answer with model llama3.2): it may be stuck; giving up after 1 min of silence.", n.Message)
	clock.Tick(30 * time.Second)
	<-ctx.Done()
	assert.True(t, w.GaveUp())
}

func TestALimitShorterThanTheNoticeGivesUpWithoutANotice(t *testing.T) {
	clock := waittest.NewClock()
	ctx, w, notices := start(t, clock, 800*time.Millisecond)
	clock.Tick(time.Second)
	<-ctx.Done()
	assert.True(t, w.GaveUp())
	w.Stop()
	assert.Empty(t, notices)
}

func TestStopEndsTheWatchWithoutGivingUp(t *testing.T) {
	clock := waittest.NewClock()
	ctx, w, _ := start(t, clock, time.Minute)
	w.Stop()
	w.Stop() // twice is fine
	assert.ErrorIs(t, ctx.Err(), context.Canceled, "the request context is released")
	assert.NotErrorIs(t, context.Cause(ctx), wait.ErrSilent)
	assert.False(t, w.GaveUp())
}

func TestTheCallersCancelIsNotGivingUp(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	ctx, w := wait.Start(parent, wait.Options{Clock: waittest.NewClock()}, wait.Request{Limit: time.Minute})
	cancel()
	<-ctx.Done()
	w.Stop()
	assert.False(t, w.GaveUp())
	assert.ErrorIs(t, context.Cause(ctx), context.Canceled)
}

func TestNoLimitMeansOnlyNotices(t *testing.T) {
	clock := waittest.NewClock()
	ctx, w, notices := start(t, clock, 0)
	clock.Tick(15 * time.Second)
	n := <-notices
	assert.Equal(t, "Waiting for Ollama at http://127.0.0.1:11434 to answer with model llama3.2: nothing yet after 10 s; waiting until it answers.", n.Message)
	assert.NoError(t, ctx.Err())
	assert.False(t, w.GaveUp())
}

// The real clock is the default; with tiny marks a request that nothing
// answers can only end at its limit, notices first.
func TestTheRealClockGivesUpAfterTheNotices(t *testing.T) {
	notices := make(chan wait.Notice, 8)
	ctx, w := wait.Start(context.Background(), wait.Options{Notice: time.Millisecond, Stall: 2 * time.Millisecond},
		wait.Request{Task: "list models", Limit: 5 * time.Millisecond, Notify: func(n wait.Notice) { notices <- n }})
	<-ctx.Done()
	w.Stop()
	require.True(t, w.GaveUp())
	close(notices)
	var got []wait.Notice
	for n := range notices {
		got = append(got, n)
	}
	assert.Equal(t, []time.Duration{time.Millisecond, 2 * time.Millisecond, 4 * time.Millisecond}, silences(got))
	assert.Contains(t, got[0].Message, "Waiting for Ollama to list models")
}

func TestHuman(t *testing.T) {
	for d, want := range map[time.Duration]string{
		10 * time.Second: "10 s", 5 * time.Minute: "5 min", 90 * time.Second: "1 min 30 s",
		150 * time.Millisecond: "150ms", 1500 * time.Millisecond: "1.5s", time.Hour: "60 min",
	} {
		assert.Equal(t, want, wait.Human(d))
	}
}
