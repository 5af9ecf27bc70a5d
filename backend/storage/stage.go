package storage

import (
	"sync"
)

// stage is where the texts of summaries made during a question wait to
// be stored: the question goes on while a background goroutine appends
// them to the workspace's pack (pack.go) one after the other, or writes a
// file for each if the pack cannot be written. A fresh workspace's first
// questions make ten summaries each. Content reads a staged text from
// memory; the workspace waits (FlushStaged) until the writer has stored
// every staged text before it commits the summaries' nodes, so the
// store never names a text that is not on disk (a crash before then loses
// summaries not yet committed, which are made again when next needed).
type stage struct {
	mu      sync.Mutex
	texts   map[string]string // hash → text not yet stored (or whose write failed)
	queue   []string
	failed  map[string]error
	running bool
	done    sync.WaitGroup // the writer goroutine
}

// text returns a staged text.
func (s *stage) text(hash string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.texts[hash]
	return t, ok
}

// Stage queues text for storing under its hash and starts the writer if
// it is not running; a read-only workspace keeps it in memory. Callers
// serialise Stage with FlushStaged (the workspace's lock), so that the
// writer never starts while FlushStaged waits for it.
func (t *Texts) Stage(hash, text string) {
	s := &t.stage
	s.mu.Lock()
	if s.texts == nil {
		s.texts = map[string]string{}
	}
	if _, ok := s.texts[hash]; !ok {
		s.texts[hash] = text
		s.queue = append(s.queue, hash)
	}
	start := !s.running && !t.readOnly // read-only: kept in memory
	s.running = s.running || start
	s.mu.Unlock()
	if start {
		s.done.Add(1)
		go t.drainStage()
	}
}

// drainStage stores the queued texts, oldest first, until none is left.
func (t *Texts) drainStage() {
	s := &t.stage
	defer s.done.Done()
	for {
		s.mu.Lock()
		if len(s.queue) == 0 {
			s.running = false
			s.mu.Unlock()
			return
		}
		h := s.queue[0]
		s.queue = s.queue[1:]
		text := s.texts[h]
		s.mu.Unlock()
		err := t.pack.add(h, text)
		if err != nil { // a pack that cannot be written: a file of its own
			_, err = t.Write(h, text)
		}
		s.mu.Lock()
		if err == nil {
			delete(s.texts, h)
		} else {
			if s.failed == nil {
				s.failed = map[string]error{}
			}
			s.failed[h] = err
		}
		s.mu.Unlock()
	}
}

// FlushStaged waits for the writer to store every staged text and returns
// those it could not store (they stay readable from memory).
func (t *Texts) FlushStaged() map[string]error {
	s := &t.stage
	s.done.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	failed := s.failed
	s.failed = nil
	return failed
}
