package model

import (
	"strings"
	"testing"
)

func TestPromptIDsAreLettersThatKeepPrefixes(t *testing.T) {
	for _, tc := range []struct{ id, want string }{
		{"n-8f48", "hpih"},
		{"n-0123456789abcdef", "etaoinsrhldcumkp"},
		{"c-8f48", "c-8f48"},   // a concept's id is written as it is
		{"n-intro", "n-intro"}, // not hex: as it is
		{"n-", "n-"},
		{"d-8f48", "d-8f48"},
	} {
		got := PromptID(tc.id)
		if got != tc.want {
			t.Errorf("PromptID(%q) = %q, want %q", tc.id, got, tc.want)
		}
		if got == tc.id {
			continue
		}
		back, ok := FromPromptID(got)
		if !ok || back != tc.id {
			t.Errorf("FromPromptID(%q) = %q, %v; want %q", got, back, ok, tc.id)
		}
		if up, ok := FromPromptID(strings.ToUpper(got)); !ok || up != tc.id {
			t.Errorf("FromPromptID(%q) = %q, %v; want %q (case aside)", strings.ToUpper(got), up, ok, tc.id)
		}
	}
	full := "n-" + ShortHash("doc", "ref")
	for n := len("n-") + 1; n <= len(full); n++ {
		if p := PromptID(full[:n]); !strings.HasPrefix(PromptID(full), p) {
			t.Fatalf("the letters of %q (%q) do not start the letters of %q (%q)", full[:n], p, full, PromptID(full))
		}
	}
	if !IsHashID(full) || IsHashID("n-8f48") || IsHashID("n-"+strings.Repeat("x", 16)) {
		t.Errorf("IsHashID tells %q from a prefix and from 16 letters wrong", full)
	}
	for _, s := range []string{"", "hpxh", "hp-h", "hpih]"} {
		if id, ok := FromPromptID(s); ok {
			t.Errorf("FromPromptID(%q) = %q, true; it is not an id's letters", s, id)
		}
	}
}
