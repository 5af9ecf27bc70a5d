package mcpserver

import "github.com/loomwork/loom/backend"

// OnIdleArmed tells f each time an idle HTTP session's clock starts (when
// the last of its POSTs in flight ends); set it before HTTPHandler.
func OnIdleArmed(s *Server, f func(id string)) { s.idleArmed = f }

// IdleArmed reports whether session id's clock runs: no POST of it is in
// flight and its timer is set.
func IdleArmed(s *Server, id string) bool {
	s.idleMu.Lock()
	defer s.idleMu.Unlock()
	for _, t := range s.idle {
		t.mu.Lock()
		e := t.sessions[id]
		armed := e != nil && e.busy == 0 && e.stop != nil
		t.mu.Unlock()
		if armed {
			return true
		}
	}
	return false
}

// Reasoning is reasoning, for tests.
func Reasoning(res *backend.QueryResult, budget, condensed int) string {
	return reasoning(res, budget, condensed)
}
