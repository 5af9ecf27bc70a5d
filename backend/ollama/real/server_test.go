package real_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// tinyModel is the name the tests create the tiny model under.
const tinyModel = "tiny"

// modelfile loads the tiny model with a chat template. temperature 0 makes
// the replies deterministic; the model never chooses its end token, so
// every reply runs to num_predict.
const modelfile = `FROM %s
TEMPLATE """{{- range .Messages }}<|{{ .Role }}|>{{ .Content }}
{{ end }}<|assistant|>"""
PARAMETER temperature 0
PARAMETER num_predict 16
`

var (
	startOnce sync.Once
	srv       *server // nil when it could not start
	startErr  error   // why, or a skip reason when missing is set
	missing   bool    // the binary or the model is not there
)

// server is a running `ollama serve`.
type server struct {
	url  string
	cmd  *exec.Cmd
	dir  string // OLLAMA_MODELS, HOME and the log
	log  string
	done chan struct{}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if srv != nil {
		srv.stop()
	}
	os.Exit(code)
}

// ollamaURL returns the address of the real Ollama with the tiny model
// created, starting it on first use. Without the binary or the model the
// test skips, or fails under CI.
func ollamaURL(t *testing.T) string {
	t.Helper()
	startOnce.Do(func() { srv, startErr = start() })
	switch {
	case missing && os.Getenv("CI") == "true":
		t.Fatalf("%v", startErr)
	case missing:
		t.Skipf("%v", startErr)
	case startErr != nil:
		t.Fatalf("starting a real Ollama: %v", startErr)
	}
	return srv.url
}

// repoRoot is the directory of Loom's go.mod, above this package.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.HasPrefix(string(b), "module github.com/loomwork/loom\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("Loom's go.mod not found above the test's directory")
		}
		dir = parent
	}
}

func start() (*server, error) {
	root, err := repoRoot()
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(root, ".cache", "ollama", "bin", "ollama")
	gguf := filepath.Join(root, ".cache", "ollama", "tiny.gguf")
	for _, f := range []string{bin, gguf} {
		if _, err := os.Stat(f); err != nil {
			missing = true
			return nil, fmt.Errorf("%s is missing: run scripts/setup.sh (or just scripts/ollama.sh), which builds Ollama and the tiny test model", f)
		}
	}

	dir, err := os.MkdirTemp("", "loom-real-ollama-")
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	host := fmt.Sprintf("127.0.0.1:%d", port)
	s := &server{url: "http://" + host, dir: dir, log: filepath.Join(dir, "ollama.log"), done: make(chan struct{})}
	env := append(os.Environ(),
		"OLLAMA_HOST="+host,
		"OLLAMA_MODELS="+filepath.Join(dir, "models"),
		"HOME="+dir, // Ollama keeps its key in ~/.ollama
		"OLLAMA_NUM_PARALLEL=1",
		"OLLAMA_MAX_LOADED_MODELS=1",
		"OLLAMA_KEEP_ALIVE=10m",
		"OLLAMA_NOHISTORY=1",
	)
	logf, err := os.Create(s.log)
	if err != nil {
		return nil, err
	}
	s.cmd = exec.Command(bin, "serve")
	s.cmd.Env, s.cmd.Stdout, s.cmd.Stderr = env, logf, logf
	orphanGuard(s.cmd)
	if err := s.cmd.Start(); err != nil {
		logf.Close()
		return nil, err
	}
	go func() { _ = s.cmd.Wait(); logf.Close(); close(s.done) }()

	if err := s.ready(); err != nil {
		s.stop()
		return nil, err
	}
	mf := filepath.Join(dir, "Modelfile")
	if err := os.WriteFile(mf, fmt.Appendf(nil, modelfile, gguf), 0o644); err != nil {
		s.stop()
		return nil, err
	}
	create := exec.Command(bin, "create", tinyModel, "-f", mf)
	create.Env = env
	if out, err := create.CombinedOutput(); err != nil {
		s.stop()
		return nil, fmt.Errorf("ollama create %s: %v\n%s%s", tinyModel, err, out, s.tail())
	}
	return s, nil
}

// ready waits until the server answers /api/version, polling every 20 ms;
// the minute is only a guard against a server that never comes up.
func (s *server) ready() error {
	guard := time.After(time.Minute)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	client := &http.Client{Timeout: 2 * time.Second}
	for {
		resp, err := client.Get(s.url + "/api/version")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-s.done:
			return fmt.Errorf("ollama serve exited before answering%s", s.tail())
		case <-guard:
			return fmt.Errorf("ollama serve did not answer %s/api/version within a minute%s", s.url, s.tail())
		case <-tick.C:
		}
	}
}

func (s *server) stop() {
	if s.cmd.Process != nil {
		// ollama serve stops its runners and exits on an interrupt; the
		// test waits for that exit, not for a time.
		_ = s.cmd.Process.Signal(os.Interrupt)
		<-s.done
	}
	_ = os.RemoveAll(s.dir)
}

// tail is the end of the server's log, for failures.
func (s *server) tail() string {
	b, _ := os.ReadFile(s.log)
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return "\n--- ollama serve log (end) ---\n" + string(b)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// testContext bounds a test as a guard against a hung server.
func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}
