package backend

import (
	"sync"
)

// stage is where the texts of summaries made during a question wait to
// be stored: the question goes on while a background goroutine appends
// them to the workspace's pack (pack.go) one after the other, or writes a
// file for each if the pack cannot be written. A fresh workspace's first
// questions make ten summaries each. Content reads a staged text from
// memory; persistPending waits until the writer has
// stored every staged text before it commits the summaries' nodes, so the
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

// stageContent queues text for storing under its hash and starts the
// writer if it is not running. Callers hold w.mu (so that it never starts
// while flushStaged waits).
func (w *Workbench) stageContent(hash, text string) {
	s := &w.stage
	s.mu.Lock()
	if s.texts == nil {
		s.texts = map[string]string{}
	}
	if _, ok := s.texts[hash]; !ok {
		s.texts[hash] = text
		s.queue = append(s.queue, hash)
	}
	start := !s.running && w.readOnly == "" // read-only: kept in memory
	s.running = s.running || start
	s.mu.Unlock()
	if start {
		s.done.Add(1)
		go w.drainStage()
	}
}

// drainStage stores the queued texts, oldest first, until none is left.
func (w *Workbench) drainStage() {
	s := &w.stage
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
		t := s.texts[h]
		s.mu.Unlock()
		err := w.pack.add(h, t)
		if err != nil { // a pack that cannot be written: a file of its own
			_, err = w.writeContent(h, t)
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

// flushStaged waits for the writer to store every staged text and returns
// those it could not store (they stay readable from memory). Callers hold
// w.mu.
func (w *Workbench) flushStaged() map[string]error {
	s := &w.stage
	s.done.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	failed := s.failed
	s.failed = nil
	return failed
}
