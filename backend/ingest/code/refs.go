package code

// refKey identifies a reference for deduplication: a name called once and
// named elsewhere is one Ref with Call set.
type refKey struct{ qual, name string }

// refSet gathers one definition's references in order of first use.
type refSet struct {
	refs []Ref
	seen map[refKey]int
	// locals are names declared inside the definition (nested functions)
	// that hide the file's own.
	locals map[string]bool
}

// local declares a name inside the definition.
func (s *refSet) local(name string) {
	if s.locals == nil {
		s.locals = make(map[string]bool)
	}
	s.locals[name] = true
}

// add records a use of qual.name; a call upgrades an earlier mention. Past
// maxRefs distinct names the rest are dropped.
func (s *refSet) add(name, qual string, call bool) {
	if name == "" || name == "_" {
		return
	}
	k := refKey{qual, name}
	if i, ok := s.seen[k]; ok {
		if call {
			s.refs[i].Call = true
		}
		return
	}
	if len(s.refs) >= maxRefs {
		return
	}
	if s.seen == nil {
		s.seen = make(map[refKey]int)
	}
	s.seen[k] = len(s.refs)
	s.refs = append(s.refs, Ref{Name: name, Qual: qual, Call: call})
}

// full reports that no further name can be added.
func (s *refSet) full() bool { return len(s.refs) >= maxRefs }
