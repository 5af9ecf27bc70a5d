package library

import (
	"reflect"
	"testing"
)

// A node tied to one concept by two edges (about and related) lists it once,
// with its strongest tie: the page keys its concept list by id.
func TestDedupeConceptsKeepsTheStrongestOnce(t *testing.T) {
	in := []ConceptLink{ // sorted strongest first, as Node sorts them
		{ID: "c-a", Name: "Budget", Similarity: 0.9},
		{ID: "c-b", Name: "Tokens", Similarity: 0.8},
		{ID: "c-a", Name: "Budget", Similarity: 0.4},
		{ID: "c-b", Name: "Tokens", Similarity: 0.3},
		{ID: "c-c", Name: "Window", Similarity: 0.2},
	}
	got := dedupeConcepts(in)
	want := []ConceptLink{
		{ID: "c-a", Name: "Budget", Similarity: 0.9},
		{ID: "c-b", Name: "Tokens", Similarity: 0.8},
		{ID: "c-c", Name: "Window", Similarity: 0.2},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("dedupeConcepts = %+v, want %+v", got, want)
	}
}
