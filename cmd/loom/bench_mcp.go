package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/mcpserver"
	"github.com/loomwork/loom/backend/synth"
)

// `loom bench mcp`: get_context over MCP against the same question asked
// in process, on the synthetic workspaces of `loom bench`. The server is
// this very program, `loom mcp`, started as a client starts it: over stdio
// (a child process speaking JSON-RPC on its stdin and stdout) and over
// Streamable HTTP on loopback (`loom mcp --http 127.0.0.1:0`, with the
// workspace's bearer token); the client is the official Go SDK's.

// BenchMCPReport is what `loom bench mcp --format json` prints.
type BenchMCPReport struct {
	BenchHost
	Seed   uint64        `json:"seed"`
	Calls  int           `json:"calls"`
	Warmup int           `json:"warmup"`
	Budget int           `json:"budget"`
	Runs   []BenchMCPRun `json:"runs"`
}

// BenchMCPRun is one workspace size. Every mode asks the same questions,
// after a first pass in process has made the summaries they load (the
// steady state a client meets).
type BenchMCPRun struct {
	Nodes        int     `json:"nodes"`
	ContentNodes int     `json:"content_nodes"`
	Reused       bool    `json:"reused"`
	IngestMS     float64 `json:"ingest_ms"`
	// InProcess is Workbench.Query with the request get_context makes.
	InProcess BenchLatency `json:"in_process"`
	// Stdio and HTTP are CallTool("get_context") from the SDK's client to
	// a `loom mcp` child process.
	Stdio BenchLatency `json:"stdio"`
	HTTP  BenchLatency `json:"http"`
}

// BenchLatency is the latency of one mode's calls, in milliseconds.
type BenchLatency struct {
	Count int `json:"count"`
	// StartMS is from starting the server's process to a connected
	// session (the process opens the workspace; HTTP: until it listens,
	// then the client's initialize).
	StartMS float64 `json:"start_ms,omitempty"`
	P50MS   float64 `json:"p50_ms"`
	P95MS   float64 `json:"p95_ms"`
	P99MS   float64 `json:"p99_ms"`
	MeanMS  float64 `json:"mean_ms"`
	MaxMS   float64 `json:"max_ms"`
}

func latency(lat []float64) BenchLatency {
	out := BenchLatency{Count: len(lat)}
	if len(lat) == 0 {
		return out
	}
	sum := 0.0
	for _, l := range lat {
		sum += l
	}
	sorted := slices.Sorted(slices.Values(lat))
	out.P50MS, out.P95MS, out.P99MS = round2(percentile(sorted, 0.50)), round2(percentile(sorted, 0.95)), round2(percentile(sorted, 0.99))
	out.MeanMS, out.MaxMS = round2(sum/float64(len(lat))), round2(sorted[len(sorted)-1])
	return out
}

type benchMCPFlags struct {
	nodes  []int
	calls  int
	warmup int
	seed   uint64
	dir    string
	format string
	loom   string
}

func cmdBenchMCP(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench mcp", stderr)
	nodes := fs.String("nodes", "1000,50000", fmt.Sprintf("content-node counts of the synthetic workspaces, comma-separated, each %d to %d", synth.MinSections, maxBenchNodes))
	var bf benchMCPFlags
	fs.IntVar(&bf.calls, "calls", 200, "get_context calls timed per mode (each a question of the synthetic set)")
	fs.IntVar(&bf.warmup, "warmup", 10, "calls each server answers before the clock starts (it opened the workspace cold)")
	fs.Uint64Var(&bf.seed, "seed", 1, "seed of the synthetic corpus and questions")
	fs.StringVar(&bf.dir, "dir", "", "keep the workspaces in this folder and reuse them (shared with loom bench; default: a temporary folder, removed)")
	fs.StringVar(&bf.format, "format", "text", "text or json")
	fs.StringVar(&bf.loom, "loom", "", "the loom program to start as the server (default: this one)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErr("bench mcp: unexpected argument %q", pos[0])
	}
	if bf.format != "text" && bf.format != "json" {
		return usageErr("bench mcp: --format must be text or json, not %q", bf.format)
	}
	if bf.calls <= 0 || bf.calls > maxBenchQueries {
		return usageErr("bench mcp: --calls must be 1 to %d, not %d", maxBenchQueries, bf.calls)
	}
	if bf.warmup < 0 || bf.warmup > maxBenchQueries {
		return usageErr("bench mcp: --warmup must be 0 to %d, not %d", maxBenchQueries, bf.warmup)
	}
	if bf.nodes, err = parseNodes("bench mcp", *nodes); err != nil {
		return err
	}
	if bf.loom == "" {
		if bf.loom, err = os.Executable(); err != nil {
			return fmt.Errorf("bench mcp: find this program to start it as the server: %w (give --loom)", err)
		}
	}
	rep, err := runBenchMCP(ctx, bf, stderr)
	if err != nil {
		return err
	}
	return writeBench(stdout, bf.format, rep, printBenchMCP)
}

// parseNodes reads a comma-separated list of workspace sizes.
func parseNodes(cmd, list string) ([]int, error) {
	var out []int
	for _, s := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < synth.MinSections || n > maxBenchNodes {
			return nil, usageErr("%s: --nodes wants numbers from %d to %d, comma-separated (e.g. 1000,10000), not %q", cmd, synth.MinSections, maxBenchNodes, s)
		}
		out = append(out, n)
	}
	return out, nil
}

func runBenchMCP(ctx context.Context, bf benchMCPFlags, stderr io.Writer) (*BenchMCPReport, error) {
	root, done, err := benchRoot(bf.dir, "loom-bench-mcp-*")
	if err != nil {
		return nil, err
	}
	defer done()
	rep := &BenchMCPReport{BenchHost: thisHost(), Seed: bf.seed, Calls: bf.calls, Warmup: bf.warmup, Budget: benchBudget}
	questions := synth.Questions(bf.calls, bf.seed)
	e, threshold, err := benchEmbedder("offline")
	if err != nil {
		return nil, err
	}
	for _, n := range bf.nodes {
		fmt.Fprintf(stderr, "bench mcp: %d nodes …\n", n)
		opts := []backend.Option{backend.WithEmbedder(e), backend.WithConceptThreshold(threshold)}
		ws, made, err := benchWorkspace(ctx, root, n, bf.seed, e, opts, stderr)
		if err != nil {
			return nil, fmt.Errorf("bench mcp %d nodes: %w", n, err)
		}
		run := BenchMCPRun{Nodes: n, Reused: made.reused, IngestMS: round2(made.ingestMS)}

		if run.InProcess, run.ContentNodes, err = benchInProcess(ctx, ws, opts, questions); err != nil {
			return nil, fmt.Errorf("bench mcp %d nodes, in process: %w", n, err)
		}
		fmt.Fprintf(stderr, "bench mcp:   in process p50 %.2f ms; over stdio …\n", run.InProcess.P50MS)
		if run.Stdio, err = benchMCPStdio(ctx, bf, ws, questions); err != nil {
			return nil, fmt.Errorf("bench mcp %d nodes, stdio: %w", n, err)
		}
		fmt.Fprintf(stderr, "bench mcp:   stdio p50 %.2f ms; over HTTP …\n", run.Stdio.P50MS)
		if run.HTTP, err = benchMCPHTTP(ctx, bf, ws, questions); err != nil {
			return nil, fmt.Errorf("bench mcp %d nodes, HTTP: %w", n, err)
		}
		rep.Runs = append(rep.Runs, run)
	}
	return rep, nil
}

// benchInProcess asks the questions of Workbench.Query as get_context
// does, after a first pass that makes the summaries they load (untimed):
// every mode then meets the same workspace, in its steady state. It
// returns the latencies and the workspace's sections.
func benchInProcess(ctx context.Context, ws string, opts []backend.Option, questions []string) (BenchLatency, int, error) {
	wb, err := backend.New(ctx, backend.Config{Dir: ws, Options: opts})
	if err != nil {
		return BenchLatency{}, 0, err
	}
	defer wb.Close()
	if err := wb.Warm(ctx); err != nil {
		return BenchLatency{}, 0, err
	}
	query := func(q string) error {
		_, err := wb.Query(ctx, backend.QueryRequest{Question: q, Budget: benchBudget})
		return err
	}
	if _, err := timeCalls(questions, query); err != nil {
		return BenchLatency{}, 0, err
	}
	lat, err := timeCalls(questions, query)
	if err != nil {
		return BenchLatency{}, 0, err
	}
	st, err := wb.Stats(ctx)
	if err != nil {
		return BenchLatency{}, 0, err
	}
	return latency(lat), st.ContentNodes, wb.Close()
}

// timeCalls calls each question once and returns the latencies in ms.
func timeCalls(questions []string, call func(string) error) ([]float64, error) {
	lat := make([]float64, 0, len(questions))
	for _, q := range questions {
		t := time.Now()
		if err := call(q); err != nil {
			return nil, fmt.Errorf("question %q: %w", q, err)
		}
		lat = append(lat, ms(time.Since(t)))
	}
	return lat, nil
}

// mcpServerCommand is `loom mcp` on ws with the offline embedder (the
// workspace's) and no Ollama; its stderr goes to stderr.
func mcpServerCommand(bf benchMCPFlags, ws string, stderr io.Writer, more ...string) *exec.Cmd {
	cmd := exec.Command(bf.loom, append([]string{"mcp", "--workspace", ws, "--embedder", "offline"}, more...)...)
	cmd.Env = append(os.Environ(), "LOOM_OLLAMA_URL=", "OLLAMA_HOST=")
	cmd.Stderr = stderr
	return cmd
}

// getContext calls get_context as a client would.
func getContext(ctx context.Context, cs *mcp.ClientSession) func(string) error {
	return func(q string) error {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: mcpserver.ToolGetContext, Arguments: map[string]any{"topic": q, "max_tokens": benchBudget}})
		if err != nil {
			return err
		}
		if res.IsError {
			var parts []string
			for _, c := range res.Content {
				if t, ok := c.(*mcp.TextContent); ok {
					parts = append(parts, t.Text)
				}
			}
			return errors.New(strings.Join(parts, " "))
		}
		return nil
	}
}

// benchSession times the calls over a connected session: the warm-up
// calls first, untimed.
func benchSession(ctx context.Context, bf benchMCPFlags, cs *mcp.ClientSession, questions []string) (BenchLatency, error) {
	call := getContext(ctx, cs)
	for i := range bf.warmup {
		if err := call(questions[i%len(questions)]); err != nil {
			return BenchLatency{}, err
		}
	}
	lat, err := timeCalls(questions, call)
	if err != nil {
		return BenchLatency{}, err
	}
	return latency(lat), nil
}

func benchClient() *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "loom-bench", Version: "1"}, nil)
}

// childLog is a child's stderr, kept to say why it failed.
type childLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *childLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *childLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.TrimSpace(l.b.String())
}

func withLog(err error, log *childLog) error {
	if s := log.String(); s != "" {
		return fmt.Errorf("%w; the server said:\n%s", err, s)
	}
	return err
}

func benchMCPStdio(ctx context.Context, bf benchMCPFlags, ws string, questions []string) (BenchLatency, error) {
	var log childLog
	t := time.Now()
	cs, err := benchClient().Connect(ctx, &mcp.CommandTransport{Command: mcpServerCommand(bf, ws, &log)}, nil)
	if err != nil {
		return BenchLatency{}, withLog(fmt.Errorf("start loom mcp: %w", err), &log)
	}
	start := ms(time.Since(t))
	out, err := benchSession(ctx, bf, cs, questions)
	if cerr := cs.Close(); err == nil && cerr != nil && !errors.Is(cerr, io.EOF) {
		err = cerr
	}
	if err != nil {
		return out, withLog(err, &log)
	}
	out.StartMS = round2(start)
	return out, nil
}

func benchMCPHTTP(ctx context.Context, bf benchMCPFlags, ws string, questions []string) (BenchLatency, error) {
	var log childLog
	pr, pw := io.Pipe()
	cmd := mcpServerCommand(bf, ws, pw, "--http", "127.0.0.1:0")
	t := time.Now()
	if err := cmd.Start(); err != nil {
		return BenchLatency{}, fmt.Errorf("start loom mcp --http: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait(); pw.Close() }()
	stop := func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	}
	// The URL and the token, from what it prints as it starts; the rest
	// of its stderr is read to the end, so it never blocks on it.
	type started struct{ url, token string }
	ready := make(chan started, 1)
	go func() {
		var s started
		sent := false
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(&log, line)
			if u, ok := strings.CutPrefix(line, "loom mcp: serving "); ok && strings.HasPrefix(u, "http://") {
				s.url = u
			}
			if _, tok, ok := strings.Cut(line, "bearer token ("); ok {
				if i := strings.Index(tok, "): "); i >= 0 {
					s.token = tok[i+3:]
				}
			}
			if s.url != "" && s.token != "" && !sent {
				sent = true
				ready <- s
			}
		}
		io.Copy(io.Discard, pr)
	}()
	var s started
	select {
	case s = <-ready:
	case err := <-exited:
		return BenchLatency{}, withLog(fmt.Errorf("loom mcp --http stopped before it served: %v", err), &log)
	case <-ctx.Done():
		stop()
		return BenchLatency{}, ctx.Err()
	}
	defer stop()
	cs, err := benchClient().Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.url, HTTPClient: &http.Client{Transport: bearerTransport{s.token}}, MaxRetries: -1}, nil)
	if err != nil {
		return BenchLatency{}, withLog(fmt.Errorf("connect to %s: %w", s.url, err), &log)
	}
	start := ms(time.Since(t))
	out, err := benchSession(ctx, bf, cs, questions)
	cs.Close()
	if err != nil {
		return out, withLog(err, &log)
	}
	out.StartMS = round2(start)
	return out, nil
}

// bearerTransport sends every request with the workspace's token.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func printBenchMCP(w io.Writer, rep *BenchMCPReport) {
	fmt.Fprintf(w, "loom bench mcp · %s/%s · %d CPUs · %s · seed %d · %d get_context calls a mode (after %d to warm up) · budget %d\n\n",
		rep.GOOS, rep.GOARCH, rep.CPUs, rep.GoVersion, rep.Seed, rep.Calls, rep.Warmup, rep.Budget)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "nodes\tmode\tstart ms\tp50 ms\tp95 ms\tp99 ms\tmean ms\tmax ms\tp50 over in process\t")
	for _, r := range rep.Runs {
		for _, m := range []struct {
			name string
			l    BenchLatency
		}{{"in process", r.InProcess}, {"stdio", r.Stdio}, {"http", r.HTTP}} {
			start, over := "", ""
			if m.l.StartMS > 0 {
				start = fmt.Sprintf("%.0f", m.l.StartMS)
			}
			if m.name != "in process" {
				over = fmt.Sprintf("+%.2f ms", m.l.P50MS-r.InProcess.P50MS)
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%s\t\n", r.Nodes, m.name, start, m.l.P50MS, m.l.P95MS, m.l.P99MS, m.l.MeanMS, m.l.MaxMS, over)
		}
	}
	tw.Flush()
}
