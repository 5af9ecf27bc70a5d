package bind

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/embed/minilm"
	"github.com/loomwork/loom/backend/errs"
)

// fakeShell records what the App logs and sends instead of calling the
// Wails runtime; its dialogs answer with what the test put in.
type fakeShell struct {
	mu sync.Mutex
	// emitted is closed and replaced on every Emit, so a test can wait for
	// an event instead of sleeping (waitFor).
	emitted   chan struct{}
	infos     []string
	errors    []string
	events    []event
	pick      []string
	savePath  string
	clipboard string
	// opened are the URLs OpenURL was given.
	opened []string
	// failDialogs makes the dialogs and the clipboard fail with it.
	failDialogs error
	// wrongEvents are events sent with a payload of another type than
	// EventPayloads gives (the page's types are made from it).
	wrongEvents []string
	// onEmit, when set, hears every event after it is recorded, in the
	// goroutine that sent it (a test acting at a point of an ingest).
	onEmit func(name string, data any)
}

type event struct {
	name string
	data any
}

func (s *fakeShell) Emit(_ context.Context, name string, data any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if want, ok := EventPayloads[name]; !ok || reflect.TypeOf(want) != reflect.TypeOf(data) {
		s.wrongEvents = append(s.wrongEvents, fmt.Sprintf("%s carries a %T", name, data))
	}
	s.events = append(s.events, event{name, data})
	if s.emitted != nil {
		close(s.emitted)
		s.emitted = nil
	}
	if s.onEmit != nil {
		defer s.onEmit(name, data) // after the lock is let go: it may wait for events
	}
}

// waitFor waits until ok holds for the events sent so far, checking after
// every Emit. The timeout only guards against a hang: it fails the test.
func (s *fakeShell) waitFor(t *testing.T, what string, ok func(events []event) bool) {
	t.Helper()
	hang := time.After(30 * time.Second)
	for {
		s.mu.Lock()
		if ok(s.events) {
			s.mu.Unlock()
			return
		}
		if s.emitted == nil {
			s.emitted = make(chan struct{})
		}
		next := s.emitted
		s.mu.Unlock()
		select {
		case <-next:
		case <-hang:
			t.Errorf("waited 30s for %s", what)
			return
		}
	}
}

func (s *fakeShell) OpenFiles(context.Context, string) ([]string, error) {
	return s.pick, s.failDialogs
}

func (s *fakeShell) OpenFolder(context.Context, string) (string, error) {
	if len(s.pick) == 0 {
		return "", s.failDialogs
	}
	return s.pick[0], s.failDialogs
}

func (s *fakeShell) SaveFile(_ context.Context, _, name string) (string, error) {
	if s.failDialogs != nil {
		return "", s.failDialogs
	}
	if s.savePath == "" {
		return "", nil
	}
	return s.savePath + "/" + name, nil
}

func (s *fakeShell) SetClipboard(_ context.Context, text string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failDialogs != nil {
		return s.failDialogs
	}
	s.clipboard = text
	return nil
}

func (s *fakeShell) OpenURL(_ context.Context, url string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failDialogs != nil {
		return s.failDialogs
	}
	s.opened = append(s.opened, url)
	return nil
}

func (s *fakeShell) eventsNamed(name string) []any {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []any
	for _, e := range s.events {
		if e.name == name {
			out = append(out, e.data)
		}
	}
	return out
}

func (s *fakeShell) LogInfo(_ context.Context, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.infos = append(s.infos, message)
}

func (s *fakeShell) LogError(_ context.Context, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.errors = append(s.errors, message)
}

// fakeWorkspace fakes what the startup tests need; the workbench tests use
// a real backend.Workbench (app_work_test.go).
type fakeWorkspace struct {
	workspace
	stats    backend.Stats
	statsErr error
	closed   int
}

func (w *fakeWorkspace) Stats(context.Context) (backend.Stats, error) { return w.stats, w.statsErr }
func (w *fakeWorkspace) Close() error                                 { w.closed++; return nil }
func (w *fakeWorkspace) ChooseEmbedder(context.Context)               {}

// newTestApp returns an App whose engine is fake: defaultDir and open are
// the given functions.
func newTestApp(defaultDir func() (string, error), open func(context.Context, string) (workspace, error)) (*App, *fakeShell) {
	shell := &fakeShell{}
	app := NewApp(shell)
	app.defaultDir = defaultDir
	app.open = open
	app.fullEncoder = func() bool { return false } // the same with or without the weights
	return app, shell
}

// Stats says whether the full encoder's weights are installed, as the
// desktop app finds them; the web edition never offers it.
func TestStatsSaysWhetherTheFullEncoderCanLoad(t *testing.T) {
	open := func(context.Context, string) (workspace, error) {
		return &fakeWorkspace{stats: backend.Stats{Workspace: "/data/default", Documents: 1}}, nil
	}
	for _, installed := range []bool{false, true} {
		app, _ := newTestApp(func() (string, error) { return "/data/default", nil }, open)
		app.fullEncoder = func() bool { return installed }
		app.Startup(t.Context())
		stats, err := app.Stats()
		require.NoError(t, err)
		assert.Equal(t, installed, stats.FullEncoder)
	}
	web := NewWebApp(&fakeShell{}, WebConfig{Dir: "/loom"})
	assert.Nil(t, web.fullEncoder)
	t.Setenv(minilm.DirEnv, "")
	_, err := minilm.Find()
	assert.Equal(t, err == nil, NewApp(&fakeShell{}).fullEncoder(), "the desktop app asks minilm.Find")
}

func TestAppStartup(t *testing.T) {
	someStats := backend.Stats{Workspace: "/data/default", Documents: 2, ContentNodes: 9, ConceptNodes: 3, Edges: 14, Tokens: 1200, Embedder: "offline/test"}

	tests := []struct {
		name       string
		env        string
		defaultDir func() (string, error)
		open       func(context.Context, string) (workspace, error)
		wantDir    string
		wantStats  backend.Stats
		wantCode   ErrorCode
		wantDamage *Damage
		wantDirErr bool
	}{
		{
			name:       "opens the default workspace",
			defaultDir: func() (string, error) { return "/data/default", nil },
			open: func(_ context.Context, dir string) (workspace, error) {
				return &fakeWorkspace{stats: backend.Stats{Workspace: dir, Documents: 2, ContentNodes: 9, ConceptNodes: 3, Edges: 14, Tokens: 1200, Embedder: "offline/test"}}, nil
			},
			wantDir:   "/data/default",
			wantStats: someStats,
		},
		{
			name:       "LOOM_WORKSPACE overrides the default",
			env:        "/tmp/elsewhere",
			defaultDir: func() (string, error) { t.Error("default dir asked for despite LOOM_WORKSPACE"); return "", nil },
			open: func(_ context.Context, dir string) (workspace, error) {
				return &fakeWorkspace{stats: backend.Stats{Workspace: dir}}, nil
			},
			wantDir:   "/tmp/elsewhere",
			wantStats: backend.Stats{Workspace: "/tmp/elsewhere"},
		},
		{
			name:       "open fails",
			defaultDir: func() (string, error) { return "/data/default", nil },
			open: func(context.Context, string) (workspace, error) {
				return nil, errors.New("not yet implemented")
			},
			wantDir:  "/data/default",
			wantCode: CodeInternal,
		},
		{
			name:       "a damaged graph store is named",
			defaultDir: func() (string, error) { return "/data/default", nil },
			open: func(context.Context, string) (workspace, error) {
				return nil, fmt.Errorf("open workspace /data/default: %w", &backend.DamagedError{Workspace: "/data/default", File: "/data/default/graph/indexes.bolt", Problem: "invalid database"})
			},
			wantDir:    "/data/default",
			wantCode:   CodeDamaged,
			wantDamage: &Damage{File: "/data/default/graph/indexes.bolt", Problem: "invalid database"},
		},
		{
			name:       "another process holds it",
			defaultDir: func() (string, error) { return "/data/default", nil },
			open: func(context.Context, string) (workspace, error) {
				return nil, fmt.Errorf("open workspace /data/default: %w, and it has no saved index", backend.ErrInUse)
			},
			wantDir:  "/data/default",
			wantCode: CodeInUse,
		},
		{
			name:       "no default folder",
			defaultDir: func() (string, error) { return "", errors.New("no home") },
			open: func(context.Context, string) (workspace, error) {
				t.Error("open called without a folder")
				return nil, nil
			},
			wantCode:   CodeWorkspaceUnavailable,
			wantDirErr: true,
		},
		{
			name:       "stats fail",
			defaultDir: func() (string, error) { return "/data/default", nil },
			open: func(context.Context, string) (workspace, error) {
				return &fakeWorkspace{statsErr: errors.New("bolt: corrupt")}, nil
			},
			wantDir:  "/data/default",
			wantCode: CodeInternal,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(WorkspaceEnv, tt.env)
			app, shell := newTestApp(tt.defaultDir, tt.open)
			app.Startup(t.Context())

			dir, err := app.WorkspaceDir()
			if tt.wantDirErr {
				require.Error(t, err)
			} else {
				require.NoError(t, err)
				assert.Equal(t, tt.wantDir, dir)
			}

			stats, err := app.Stats()
			if tt.wantCode != "" {
				require.Error(t, err)
				p := Payload(err)
				assert.Equal(t, tt.wantCode, p.Code)
				assert.NotEmpty(t, p.Message)
				assert.Equal(t, tt.wantDamage, p.Damage)
				if tt.name != "stats fail" {
					require.Len(t, shell.errors, 1, "a failed open is logged once")
				}
				if tt.wantDir != "" && tt.name != "stats fail" {
					// scripts/e2e-desktop.sh waits for these words.
					assert.Contains(t, shell.errors[0], "did not open it")
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantStats, stats)
			assert.Len(t, shell.infos, 1)
		})
	}
}

func TestStatsWaitsForStartup(t *testing.T) {
	t.Setenv(WorkspaceEnv, "/tmp/ws")
	// A synctest bubble: synctest.Wait returns once every goroutine in it
	// is blocked, so "Stats has not returned yet" is a fact, not a guess
	// made after some milliseconds.
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		app, _ := newTestApp(nil, func(context.Context, string) (workspace, error) {
			<-release
			return &fakeWorkspace{stats: backend.Stats{Documents: 5}}, nil
		})

		// On Linux, Wails runs OnStartup in its own goroutine while the page
		// loads, so the page may ask for stats before the workspace is open.
		type result struct {
			stats backend.Stats
			err   error
		}
		got := make(chan result, 1)
		go func() {
			stats, err := app.Stats()
			got <- result{stats, err}
		}()
		go app.Startup(t.Context())

		synctest.Wait() // Stats and Startup are both blocked now
		select {
		case r := <-got:
			close(release) // let Startup end, so the bubble can
			t.Fatalf("Stats returned before the workspace opened: %+v", r)
		default:
		}
		close(release)
		synctest.Wait()
		select {
		case r := <-got:
			require.NoError(t, r.err)
			assert.Equal(t, 5, r.stats.Documents)
		default:
			t.Fatal("Stats is still waiting after the workspace opened")
		}
	})
}

func TestShutdownClosesWorkspace(t *testing.T) {
	t.Setenv(WorkspaceEnv, "/tmp/ws")
	bench := &fakeWorkspace{}
	app, _ := newTestApp(nil, func(context.Context, string) (workspace, error) { return bench, nil })
	app.Startup(t.Context())

	app.Shutdown(t.Context())
	app.Shutdown(t.Context())

	assert.Equal(t, 1, bench.closed, "closed exactly once")
	_, err := app.Stats()
	assert.Equal(t, CodeClosed, Payload(err).Code)
}

// Payload is the one place an error becomes what the page receives: the
// engine's code and message unchanged, through any wrapping; bind's own
// failures with bind's code; anything uncoded as internal, its text as the
// detail.
func TestPayload(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want ErrorPayload
	}{
		{
			name: "an engine error keeps its code and message",
			err:  errs.E(errs.Invalid, "the question is empty: type what you want to know"),
			want: ErrorPayload{Code: CodeInvalid, Message: "The question is empty: type what you want to know."},
		},
		{
			name: "wrapped by the engine",
			err:  fmt.Errorf("pin n-1: %w", backend.ErrReadOnly),
			want: ErrorPayload{Code: CodeReadOnly, Message: "Pin n-1: the workspace is open read-only."},
		},
		{
			name: "a damaged workspace names the file",
			err:  fmt.Errorf("open workspace /ws: %w", &backend.DamagedError{Workspace: "/ws", File: "/ws/graph/indexes.bolt", Problem: "invalid database"}),
			want: ErrorPayload{Code: CodeDamaged, Damage: &Damage{File: "/ws/graph/indexes.bolt", Problem: "invalid database"},
				Message: "Open workspace /ws: /ws/graph/indexes.bolt: invalid database; run `loom doctor --workspace /ws` to see what is readable and `loom repair --workspace /ws` to salvage it into a new workspace."},
		},
		{
			name: "bind's own failure keeps bind's code, message and cause",
			err:  &Error{Code: CodeShellFailed, Message: "The file dialog failed.", Err: errors.New("no portal")},
			want: ErrorPayload{Code: CodeShellFailed, Message: "The file dialog failed.", Detail: "no portal"},
		},
		{
			name: "bind's own failure, wrapped",
			err:  fmt.Errorf("stats: %w", closedError()),
			want: ErrorPayload{Code: CodeClosed, Message: "The workspace is closed because Loom is shutting down."},
		},
		{
			name: "a cancelled context",
			err:  fmt.Errorf("ingest: %w", context.Canceled),
			want: ErrorPayload{Code: CodeCanceled, Message: "Ingest: context canceled."},
		},
		{
			name: "anything else is internal, its text the detail",
			err:  errors.New("bolt: page 7 already freed"),
			want: ErrorPayload{Code: CodeInternal, Message: "Something went wrong inside Loom.", Detail: "bolt: page 7 already freed"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Payload(tt.err))
			assert.Equal(t, tt.want, FormatError(tt.err), "Wails's formatter sends the same")
		})
	}
}

// The desktop app finds Ollama at LOOM_OLLAMA_URL, else at OLLAMA_HOST (as
// the Ollama CLI reads it), else at http://127.0.0.1:11434: the engine
// reads no environment, the app passes what it read.
func TestOllamaAddressComesFromLOOM_OLLAMA_URLThenOLLAMA_HOST(t *testing.T) {
	for _, tc := range []struct {
		name, loom, host, want string
	}{
		{"LOOM_OLLAMA_URL wins", "http://127.0.0.1:7777", "127.0.0.1:5555", "http://127.0.0.1:7777"},
		{"then OLLAMA_HOST", "", "127.0.0.1:5555", "http://127.0.0.1:5555"},
		{"then the default", "", "", "http://127.0.0.1:11434"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(OllamaEnv, tc.loom)
			t.Setenv("OLLAMA_HOST", tc.host)
			c, err := NewApp(&fakeShell{}).serverConfig()
			require.NoError(t, err)
			assert.Equal(t, tc.want, c.URL)
		})
	}
}

func (w *fakeWorkspace) BudgetLimits(int) (backend.Limits, error) {
	return backend.Limits{}, errors.New("the fake workspace has no limits")
}
