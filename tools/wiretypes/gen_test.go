package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The checked-in types are what the Go types say: a Go change that is not
// regenerated (make bindings) fails here.
func TestTheTypesFileIsWhatTheGoTypesSay(t *testing.T) {
	root := filepath.Join("..", "..")
	want, err := generate(root)
	require.NoError(t, err)
	have, err := os.ReadFile(filepath.Join(root, TypesFile))
	require.NoError(t, err)
	if string(have) == string(want) {
		return
	}
	haveLines, wantLines := strings.Split(string(have), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(haveLines), len(wantLines)) {
		var h, w string
		if i < len(haveLines) {
			h = haveLines[i]
		}
		if i < len(wantLines) {
			w = wantLines[i]
		}
		if h != w {
			t.Fatalf("%s is not what the Go types say (run make bindings); first difference at line %d:\n  file: %s\n  Go:   %s", TypesFile, i+1, h, w)
		}
	}
}

// The whole bridge is covered: every call of bind.App, the events with
// their payloads, the rejection with its codes.
func TestTheBridgeIsCovered(t *testing.T) {
	src, err := generate(filepath.Join("..", ".."))
	require.NoError(t, err)
	out := string(src)
	for _, want := range []string{
		"  Query(req: QueryRequest): Promise<QueryResult>;",
		"  Chat(args: ChatArgs, stream: string): Promise<ChatTurn>;",
		"  RemoveDocument(id: string): Promise<void>;",
		"  'chat:delta': ChatDelta;",
		"  'ingest:progress': IngestProgress;",
		"  'ollama:wait': Notice;",
		"export type Rejection = ErrorPayload;",
		"  code: ErrorCode;",
		"  | 'ollama_not_running'",
		"  | 'shell_failed';",
		"  level?: Level;",
		"  asked: string;",
	} {
		assert.Contains(t, out, want)
	}
	assert.NotContains(t, out, "Startup(", "lifecycle hooks are not calls")
	assert.NotContains(t, out, "Shutdown(")
}

// What the rules are tested on: every way a Go type can reach JSON.
type sampleKind string

type sampleInner struct {
	A int `json:"a"`
}

type SampleEmbedded struct {
	E        string `json:"e"`
	Shadowed int    `json:"shadowed"`
}

type sampleValue struct {
	SampleEmbedded
	Name     string             `json:"name"`
	Opt      string             `json:"opt,omitempty"`
	Ptr      *sampleInner       `json:"ptr"`
	OptPtr   *sampleInner       `json:"opt_ptr,omitempty"`
	Zero     sampleInner        `json:"zero,omitzero"`
	When     time.Time          `json:"when"`
	Took     time.Duration      `json:"took_ns"`
	Bytes    []byte             `json:"bytes"`
	List     []*sampleInner     `json:"list"`
	ByName   map[string]float64 `json:"by_name"`
	ByNumber map[int]bool       `json:"by_number"`
	Any      any                `json:"any"`
	Skip     string             `json:"-"`
	hidden   string
	Untagged bool
	Num      int64                     `json:"num,string"`
	Kind     sampleKind                `json:"kind"`
	Kinds    []sampleKind              `json:"kinds"`
	Shadowed string                    `json:"shadowed"`
	Anon     struct{ X uint8 }         `json:"anon"`
	Dashed   string                    `json:"with-dash"`
	Nested   map[string][]*sampleInner `json:"nested"`
}

type sampleApp struct{}

func (*sampleApp) Get(n int) (*sampleValue, error)           { return nil, nil }
func (*sampleApp) Do() error                                 { return nil }
func (*sampleApp) Quiet(flag bool)                           {}
func (*sampleApp) Startup(context.Context)                   {}
func (*sampleApp) Many(names []string) ([]sampleKind, error) { return nil, nil }

func TestEncodingJSONRules(t *testing.T) {
	src, err := Generate(API{
		App:    &sampleApp{},
		Events: map[string]any{"thing:happened": sampleInner{}},
		Error:  sampleInner{},
		Enums:  []Enum{{Type: sampleKind(""), Values: []string{"one", "two's"}}},
	}, Source{Root: ".", Module: "example.test/none"})
	require.NoError(t, err)
	out := string(src)
	for _, want := range []string{
		"  Get(arg1: number): Promise<sampleValue>;",
		"  Do(): Promise<void>;",
		"  Quiet(arg1: boolean): Promise<void>;",
		"  Many(arg1: string[]): Promise<sampleKind[]>;",
		"  'thing:happened': sampleInner;",
		"export type Rejection = sampleInner;",
		// Embedded fields are promoted; the outer one of a name wins.
		"  e: string;",
		"  shadowed: string;",
		"  name: string;",
		"  opt?: string;",
		"  ptr: sampleInner | null;",
		"  opt_ptr?: sampleInner;",
		"  zero?: sampleInner;",
		"  when: string;",
		"  took_ns: number;",
		"  bytes: string;",
		"  list: sampleInner[];",
		"  by_name: Record<string, number>;",
		"  by_number: Record<string, boolean>;",
		"  any: unknown;",
		"  Untagged: boolean;",
		"  num: string;",
		"  kind: sampleKind;",
		"  kinds: sampleKind[];",
		"  anon: { X: number };",
		"  'with-dash': string;",
		"  nested: Record<string, sampleInner[]>;",
		"export type sampleKind = 'one' | 'two\\'s';",
	} {
		assert.Contains(t, out, want)
	}
	for _, absent := range []string{"Skip", "skip", "hidden", "Startup", "shadowed: number"} {
		assert.NotContains(t, out, absent)
	}
}

type ownJSON struct{}

func (ownJSON) MarshalJSON() ([]byte, error) { return []byte(`"x"`), nil }

type ownJSONApp struct{}

func (*ownJSONApp) Get() (ownJSON, error) { return ownJSON{}, nil }

type twoErrorsApp struct{}

func (*twoErrorsApp) Get() (int, string, error) { return 0, "", nil }

type chanApp struct{}

func (*chanApp) Get() (chan int, error) { return nil, nil }

// A type whose JSON the generator cannot know is refused by name, not
// guessed.
func TestWhatCannotBeTypedIsRefused(t *testing.T) {
	var _ json.Marshaler = ownJSON{}
	for name, c := range map[string]struct {
		app  any
		want string
	}{
		"writes its own JSON":   {&ownJSONApp{}, "writes its own JSON"},
		"two results":           {&twoErrorsApp{}, "returns 2 values"},
		"a channel":             {&chanApp{}, "cannot be written as JSON"},
		"not a pointer":         {sampleApp{}, "pointer to a struct"},
		"not a pointer, struct": {new(int), "pointer to a struct"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Generate(API{App: c.app, Error: sampleInner{}}, Source{Root: ".", Module: "example.test/none"})
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

type byName [3]float64

func (byName) JSONNames() []string { return []string{"alpha", "beta", "gamma"} }

func (byName) MarshalJSON() ([]byte, error) { return []byte(`{"alpha":0,"beta":0,"gamma":0}`), nil }

type byNameApp struct{}

func (*byNameApp) Get() (byName, error) { return byName{}, nil }

// A type that writes its JSON as an object of numbers by name (the ranking
// signals and weights) says its members, and is typed with them in order.
func TestNumbersByNameAreTypedByTheirNames(t *testing.T) {
	b, err := Generate(API{App: &byNameApp{}, Error: sampleInner{}}, Source{Root: ".", Module: "example.test/none"})
	require.NoError(t, err)
	out := string(b)
	assert.Contains(t, out, "export interface byName {\n  alpha: number;\n  beta: number;\n  gamma: number;\n}\n")
	assert.Contains(t, out, "Get(): Promise<byName>;")
}
