package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/embed/offline"
	"github.com/loomwork/loom/backend/embed/synthetic"
	"github.com/loomwork/loom/backend/storage"
	"github.com/loomwork/loom/backend/synth"
)

// benchBudget is the context budget of every benchmark question.
const benchBudget = 4000

// BenchHost is the machine a benchmark ran on; every bench report opens
// with it.
type BenchHost struct {
	GOOS      string `json:"goos"`
	GOARCH    string `json:"goarch"`
	CPUs      int    `json:"cpus"`
	GoVersion string `json:"go_version"`
}

// thisHost is the machine this program runs on.
func thisHost() BenchHost {
	return BenchHost{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPUs: runtime.GOMAXPROCS(0), GoVersion: runtime.Version()}
}

// benchRoot is where a benchmark keeps its workspaces: dir, or a new
// temporary folder (named by pattern) that done removes.
func benchRoot(dir, pattern string) (root string, done func(), err error) {
	if dir != "" {
		return dir, func() {}, nil
	}
	d, err := os.MkdirTemp("", pattern)
	if err != nil {
		return "", nil, err
	}
	return d, func() { os.RemoveAll(d) }, nil
}

// writeBench prints a bench report: indented JSON, or text by print.
func writeBench[R any](w io.Writer, format string, rep R, print func(io.Writer, R)) error {
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	print(w, rep)
	return nil
}

// BenchReport is what `loom bench --format json` prints.
type BenchReport struct {
	BenchHost
	Seed    uint64     `json:"seed"`
	Queries int        `json:"queries"`
	Budget  int        `json:"budget"`
	Runs    []BenchRun `json:"runs"`
}

// BenchRun is one workspace size with one embedder. Times are in
// milliseconds.
type BenchRun struct {
	Nodes            int     `json:"nodes"`
	Embedder         string  `json:"embedder"`
	Dim              int     `json:"dim"`
	ConceptThreshold float64 `json:"concept_threshold"`
	Files            int     `json:"files"`
	ContentNodes     int     `json:"content_nodes"`
	ConceptNodes     int     `json:"concept_nodes"`
	Edges            int     `json:"edges"`
	Tokens           int64   `json:"tokens"`
	// Reused: the workspace came from an earlier run under --dir (restored
	// from the copy taken right after its ingest, so that every run's first
	// pass finds no summaries), so GenerateMS and IngestMS are 0.
	Reused     bool    `json:"reused"`
	GenerateMS float64 `json:"generate_ms"`
	// IngestMS is Ingest plus Close (which writes the caches).
	IngestMS float64 `json:"ingest_ms"`
	// OpenMS is backend.Open plus Warm: from a closed workspace to one
	// ready to answer; OpenOnlyMS and WarmMS split it. It is the first
	// open after the ingest (which builds what Warm caches, such as the
	// vector sketch, unless the workspace was reused); ReopenMS is the
	// same again after the questions, from warm caches.
	OpenMS     float64 `json:"open_ms"`
	OpenOnlyMS float64 `json:"open_only_ms"`
	WarmMS     float64 `json:"warm_ms"`
	ReopenMS   float64 `json:"reopen_ms"`
	// Query is the questions asked once; Repeat the same questions
	// again, when the summaries the first pass made (extractive, cached as
	// analysis nodes) are there to reuse: the steady state.
	Query  BenchQuery  `json:"query"`
	Repeat BenchQuery  `json:"repeat"`
	Memory BenchMemory `json:"memory"`
}

// BenchQuery is the latency of the whole Query path over the questions.
type BenchQuery struct {
	Count   int     `json:"count"`
	FirstMS float64 `json:"first_ms"`
	P50MS   float64 `json:"p50_ms"`
	P99MS   float64 `json:"p99_ms"`
	MeanMS  float64 `json:"mean_ms"`
	MaxMS   float64 `json:"max_ms"`
	// Phases is the mean of QueryResult.Timing per phase, in ms.
	Phases     BenchPhases `json:"phases_mean_ms"`
	LoadedMean float64     `json:"loaded_mean"`
	// AllocKiB is the heap allocated per question (the garbage
	// collector's work), GCCycles the collections during the pass (a
	// question that runs beside one is slower).
	AllocKiB float64 `json:"alloc_kib"`
	GCCycles uint32  `json:"gc_cycles"`
}

// BenchPhases mirrors backend.Timing in milliseconds.
type BenchPhases struct {
	Classify   float64 `json:"classify"`
	Candidates float64 `json:"candidates"`
	Score      float64 `json:"score"`
	Select     float64 `json:"select"`
	Assemble   float64 `json:"assemble"`
}

// BenchMemory is sampled every 5 ms from runtime/metrics during the run
// (ingest, open and queries). MaxRSSMiB is the process's peak resident set
// (getrusage): it covers the whole process so far, earlier runs included,
// so run one size and embedder per process for a per-run figure.
type BenchMemory struct {
	PeakHeapInuseMiB float64 `json:"peak_heap_inuse_mib"`
	PeakSysMiB       float64 `json:"peak_sys_mib"`
	HeapAfterOpenMiB float64 `json:"heap_after_open_mib"`
	MaxRSSMiB        float64 `json:"max_rss_mib"`
}

type benchFlags struct {
	nodes        []int
	embedders    []string // "offline", "768"
	queries      int
	format       string
	seed         uint64
	dir          string
	queryProfile string
	openProfile  string
}

// Bounds of bench's counts: twenty times the largest workspace the
// benchmarks report (50,000 sections) and thousands of times their
// question count; a larger number is a typo, not a plan, and would only
// exhaust memory.
const (
	maxBenchNodes   = 1_000_000
	maxBenchQueries = 1_000_000
)

func cmdBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "mcp":
			return cmdBenchMCP(ctx, args[1:], stdout, stderr)
		case "watch":
			return cmdBenchWatch(ctx, args[1:], stdout, stderr)
		}
	}
	fs := newFlags("bench", stderr)
	nodes := fs.String("nodes", "1000,10000,50000", fmt.Sprintf("content-node counts of the synthetic workspaces, comma-separated, each %d to %d", synth.MinSections, maxBenchNodes))
	dims := fs.String("dims", "both", "embedders: offline (all-MiniLM-L6-v2 distilled to a static table, 256-d), 768 (synthetic random-768, standing in for an Ollama model) or both")
	var bf benchFlags
	fs.IntVar(&bf.queries, "queries", 200, fmt.Sprintf("questions per workspace, 1 to %d", maxBenchQueries))
	fs.StringVar(&bf.format, "format", "text", "text or json")
	fs.Uint64Var(&bf.seed, "seed", 1, "seed of the synthetic corpus and questions")
	fs.StringVar(&bf.dir, "dir", "", "keep the workspaces in this folder and reuse them on the next run (default: a temporary folder, removed)")
	fs.StringVar(&bf.queryProfile, "query-profile", "", "write a CPU profile of the query loops (only) to this file; one size and embedder")
	fs.StringVar(&bf.openProfile, "open-profile", "", "write a CPU profile of the first open (Open + Warm, only) to this file; one size and embedder")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErr("bench: unexpected argument %q", pos[0])
	}
	if bf.format != "text" && bf.format != "json" {
		return usageErr("bench: --format must be text or json, not %q", bf.format)
	}
	if bf.queries <= 0 || bf.queries > maxBenchQueries {
		return usageErr("bench: --queries must be 1 to %d, not %d", maxBenchQueries, bf.queries)
	}
	if bf.nodes, err = parseNodes("bench", *nodes); err != nil {
		return err
	}
	switch *dims {
	case "offline", "768":
		bf.embedders = []string{*dims}
	case "both":
		bf.embedders = []string{"offline", "768"}
	default:
		return usageErr("bench: --dims must be offline, 768 or both, not %q", *dims)
	}
	if (bf.queryProfile != "" || bf.openProfile != "") && len(bf.nodes)*len(bf.embedders) > 1 {
		return usageErr("bench: --query-profile and --open-profile profile one run: give one --nodes size and --dims offline or 768")
	}
	if bf.queryProfile != "" && bf.queryProfile == bf.openProfile {
		return usageErr("bench: --query-profile and --open-profile need different files")
	}
	rep, err := runBench(ctx, bf, stderr)
	if err != nil {
		return err
	}
	return writeBench(stdout, bf.format, rep, printBench)
}

func runBench(ctx context.Context, bf benchFlags, stderr io.Writer) (*BenchReport, error) {
	root, done, err := benchRoot(bf.dir, "loom-bench-*")
	if err != nil {
		return nil, err
	}
	defer done()
	rep := &BenchReport{BenchHost: thisHost(), Seed: bf.seed, Queries: bf.queries, Budget: benchBudget}
	var prof *os.File
	if bf.queryProfile != "" {
		f, err := os.Create(bf.queryProfile)
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		defer f.Close()
		prof = f
	}
	var openProf *os.File
	if bf.openProfile != "" {
		f, err := os.Create(bf.openProfile)
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		defer f.Close()
		openProf = f
	}
	questions := synth.Questions(bf.queries, bf.seed)
	for _, n := range bf.nodes {
		for _, kind := range bf.embedders {
			e, threshold, err := benchEmbedder(kind)
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(stderr, "bench: %d nodes, %s …\n", n, e.ID())
			run, err := benchOne(ctx, root, n, e, threshold, questions, bf.seed, prof, openProf, stderr)
			if err != nil {
				return nil, fmt.Errorf("bench %d nodes with %s: %w", n, e.ID(), err)
			}
			rep.Runs = append(rep.Runs, *run)
		}
	}
	if prof != nil {
		pprof.StopCPUProfile()
	}
	return rep, nil
}

func benchEmbedder(kind string) (embed.Embedder, float64, error) {
	if kind == "768" {
		return synthetic.New(), synthetic.ConceptThreshold, nil
	}
	e, err := offline.New()
	if err != nil {
		return nil, 0, err
	}
	return e, embed.ConceptThreshold(e.ID()), nil
}

func benchOne(ctx context.Context, root string, n int, e embed.Embedder, threshold float64, questions []string, seed uint64,
	prof, openProf *os.File, stderr io.Writer) (*BenchRun, error) {
	run := &BenchRun{Nodes: n, Embedder: e.ID(), Dim: e.Dim(), ConceptThreshold: threshold, Files: len(synth.FileSections(n, seed))}
	opts := []backend.Option{backend.WithEmbedder(e), backend.WithConceptThreshold(threshold)}

	runtime.GC()
	debug.FreeOSMemory()
	mem := startMemorySampler()
	defer mem.stop()

	ws, made, err := benchWorkspace(ctx, root, n, seed, e, opts, stderr)
	if err != nil {
		return nil, err
	}
	run.Reused, run.GenerateMS, run.IngestMS = made.reused, made.generateMS, made.ingestMS

	if openProf != nil {
		if err := pprof.StartCPUProfile(openProf); err != nil {
			return nil, fmt.Errorf("--open-profile: %w (is LOOM_CPUPROFILE set too?)", err)
		}
	}
	t := time.Now()
	wb, err := backend.New(ctx, backend.Config{Dir: ws, Options: opts})
	if err != nil {
		return nil, err
	}
	defer func() {
		if wb != nil {
			wb.Close()
		}
	}()
	// One clock reading at each boundary, so that the two parts add up to
	// the whole whatever the scheduler does between the readings.
	opened := time.Now()
	if err := wb.Warm(ctx); err != nil {
		return nil, err
	}
	warmed := time.Now()
	run.OpenOnlyMS, run.WarmMS, run.OpenMS = ms(opened.Sub(t)), ms(warmed.Sub(opened)), ms(warmed.Sub(t))
	if openProf != nil {
		pprof.StopCPUProfile()
	}
	run.Memory.HeapAfterOpenMiB = mib(heapInuse())
	st, err := wb.Stats(ctx)
	if err != nil {
		return nil, err
	}
	run.ContentNodes, run.ConceptNodes, run.Edges, run.Tokens = st.ContentNodes, st.ConceptNodes, st.Edges, st.Tokens

	if prof != nil {
		if err := pprof.StartCPUProfile(prof); err != nil {
			return nil, fmt.Errorf("--query-profile: %w (is LOOM_CPUPROFILE set too?)", err)
		}
		defer pprof.StopCPUProfile()
	}
	if run.Query, err = askAll(ctx, wb, questions); err != nil {
		return nil, err
	}
	if run.Repeat, err = askAll(ctx, wb, questions); err != nil {
		return nil, err
	}
	if prof != nil {
		pprof.StopCPUProfile()
	}

	if err := wb.Close(); err != nil {
		return nil, err
	}
	runtime.GC()
	t = time.Now()
	wb, err = backend.New(ctx, backend.Config{Dir: ws, Options: opts})
	if err != nil {
		return nil, err
	}
	if err := wb.Warm(ctx); err != nil {
		return nil, err
	}
	run.ReopenMS = round2(ms(time.Since(t)))

	peakHeap, peakSys := mem.stop()
	run.Memory.PeakHeapInuseMiB, run.Memory.PeakSysMiB = mib(peakHeap), mib(peakSys)
	run.Memory.MaxRSSMiB = mib(maxRSS())
	run.GenerateMS, run.IngestMS, run.OpenMS = round2(run.GenerateMS), round2(run.IngestMS), round2(run.OpenMS)
	run.OpenOnlyMS, run.WarmMS = round2(run.OpenOnlyMS), round2(run.WarmMS)
	return run, nil
}

// benchMade says how benchWorkspace came by its workspace.
type benchMade struct {
	reused               bool
	generateMS, ingestMS float64
}

// benchWorkspace is the synthetic workspace of n sections (seed) with
// embedder e under root, as its ingest left it: generated and ingested
// the first time (and a copy kept beside it, with a mark that it is
// whole), restored from that copy on later runs under the same --dir, so
// that every run starts from the ingest's state (questions write
// summaries and caches).
func benchWorkspace(ctx context.Context, root string, n int, seed uint64, e embed.Embedder, opts []backend.Option, stderr io.Writer) (string, benchMade, error) {
	var made benchMade
	dir := filepath.Join(root, fmt.Sprintf("n%d-seed%d-%s", n, seed, strings.ReplaceAll(e.ID(), "/", "_")))
	corpus, ws := filepath.Join(dir, "corpus"), filepath.Join(dir, "ws")
	pristine, done := filepath.Join(dir, "ws.ingested"), filepath.Join(dir, "ws.ingested.done")
	if _, err := os.Stat(done); err == nil {
		if err := os.RemoveAll(ws); err != nil {
			return "", made, err
		}
		if err := copyWorkspace(pristine, ws); err != nil {
			return "", made, fmt.Errorf("bench: restore %s: %w", ws, err)
		}
		made.reused = true
		return ws, made, nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return "", made, err
	}
	t := time.Now()
	if err := synth.Generate(corpus, n, seed); err != nil {
		return "", made, err
	}
	made.generateMS = ms(time.Since(t))
	t = time.Now()
	wb, err := backend.New(ctx, backend.Config{Dir: ws, Options: opts})
	if err != nil {
		return "", made, err
	}
	ir, err := wb.Ingest(ctx, []string{corpus}, backend.IngestOptions{})
	if err == nil && len(ir.Errors) > 0 {
		err = errors.Join(ir.Errors...)
	}
	if err != nil {
		wb.Close()
		return "", made, err
	}
	if err := wb.Close(); err != nil {
		return "", made, err
	}
	made.ingestMS = ms(time.Since(t))
	if err := copyWorkspace(ws, pristine); err != nil {
		return "", made, fmt.Errorf("bench: keep the ingested workspace: %w", err)
	}
	// As the restored copies are synced (copyWorkspace): the ingest's own
	// writes reach the disk before the clock starts. Where there is no
	// syncfs, their write-back may overlap the timed open.
	if _, err := storage.SyncFileSystem(ws); err != nil {
		return "", made, fmt.Errorf("bench: %w", err)
	}
	if err := os.WriteFile(done, nil, 0o644); err != nil {
		return "", made, err
	}
	fmt.Fprintf(stderr, "bench:   ingested in %.1f s\n", made.ingestMS/1000)
	runtime.GC()
	debug.FreeOSMemory()
	return ws, made, nil
}

// askAll times Query over every question, budget benchBudget, NoTouch.
func askAll(ctx context.Context, wb *backend.Workbench, questions []string) (BenchQuery, error) {
	lat := make([]float64, 0, len(questions))
	var phases BenchPhases
	loaded := 0
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for _, q := range questions {
		t := time.Now()
		res, err := wb.Query(ctx, backend.QueryRequest{Question: q, Budget: benchBudget, NoTouch: true})
		if err != nil {
			return BenchQuery{}, fmt.Errorf("question %q: %w", q, err)
		}
		lat = append(lat, ms(time.Since(t)))
		tm := res.Timing
		phases.Classify += float64(tm.Classify) / 1000
		phases.Candidates += float64(tm.Candidates) / 1000
		phases.Score += float64(tm.Score) / 1000
		phases.Select += float64(tm.Select) / 1000
		phases.Assemble += float64(tm.Assemble) / 1000
		loaded += res.Loaded
	}
	runtime.ReadMemStats(&after)
	k := float64(len(lat))
	out := BenchQuery{Count: len(lat), FirstMS: round2(lat[0]), LoadedMean: round2(float64(loaded) / k),
		AllocKiB: round2(float64(after.TotalAlloc-before.TotalAlloc) / 1024 / k), GCCycles: after.NumGC - before.NumGC,
		Phases: BenchPhases{Classify: round2(phases.Classify / k), Candidates: round2(phases.Candidates / k), Score: round2(phases.Score / k),
			Select: round2(phases.Select / k), Assemble: round2(phases.Assemble / k)}}
	sum := 0.0
	for _, l := range lat {
		sum += l
	}
	out.MeanMS = round2(sum / k)
	slices.Sort(lat)
	out.P50MS, out.P99MS, out.MaxMS = round2(percentile(lat, 0.50)), round2(percentile(lat, 0.99)), round2(lat[len(lat)-1])
	return out, nil
}

// percentile of sorted values, nearest rank.
func percentile(sorted []float64, p float64) float64 {
	i := int(p*float64(len(sorted))+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
func round2(x float64) float64   { return float64(int64(x*100+0.5)) / 100 }
func mib(b uint64) float64       { return round2(float64(b) / (1 << 20)) }

// memorySampler records the peak of the heap in use and of all memory
// mapped by the Go runtime, from runtime/metrics (which does not stop the
// world, unlike ReadMemStats).
type memorySampler struct {
	quit chan struct{}
	wg   sync.WaitGroup
	once sync.Once
	heap uint64
	sys  uint64
}

var memoryMetrics = []string{"/memory/classes/heap/objects:bytes", "/memory/classes/heap/unused:bytes", "/memory/classes/total:bytes"}

func readMemory() (heap, sys uint64) {
	s := make([]metrics.Sample, len(memoryMetrics))
	for i, name := range memoryMetrics {
		s[i].Name = name
	}
	metrics.Read(s)
	return s[0].Value.Uint64() + s[1].Value.Uint64(), s[2].Value.Uint64()
}

func heapInuse() uint64 { h, _ := readMemory(); return h }

func startMemorySampler() *memorySampler {
	m := &memorySampler{quit: make(chan struct{})}
	m.wg.Go(func() {
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			h, s := readMemory()
			m.heap, m.sys = max(m.heap, h), max(m.sys, s)
			select {
			case <-m.quit:
				return
			case <-tick.C:
			}
		}
	})
	return m
}

// stop ends sampling (once) and returns the peaks.
func (m *memorySampler) stop() (heap, sys uint64) {
	m.once.Do(func() {
		close(m.quit)
		m.wg.Wait()
	})
	return m.heap, m.sys
}

func printBench(w io.Writer, rep *BenchReport) {
	fmt.Fprintf(w, "loom bench · %s/%s · %d CPUs · %s · seed %d · %d questions · budget %d\n\n",
		rep.GOOS, rep.GOARCH, rep.CPUs, rep.GoVersion, rep.Seed, rep.Queries, rep.Budget)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "nodes\tembedder\tconcepts\tingest s\topen ms\treopen ms\tp50 ms\tp99 ms\trepeat p50\tp99\tpeak heap MiB\tmax RSS MiB\t")
	for _, r := range rep.Runs {
		ingest := fmt.Sprintf("%.1f", r.IngestMS/1000)
		if r.Reused {
			ingest = "reused"
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%s\t%.0f\t%.0f\t%.2f\t%.2f\t%.2f\t%.2f\t%.0f\t%.0f\t\n", r.Nodes, r.Embedder, r.ConceptNodes, ingest,
			r.OpenMS, r.ReopenMS, r.Query.P50MS, r.Query.P99MS, r.Repeat.P50MS, r.Repeat.P99MS, r.Memory.PeakHeapInuseMiB, r.Memory.MaxRSSMiB)
	}
	tw.Flush()
	fmt.Fprintln(w, "\nmean time per query phase, first pass (ms):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "nodes\tembedder\tclassify\tcandidates\tscore\tselect\tassemble\tloaded\t")
	for _, r := range rep.Runs {
		p := r.Query.Phases
		fmt.Fprintf(tw, "%d\t%s\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.1f\t\n", r.Nodes, r.Embedder, p.Classify, p.Candidates, p.Score, p.Select, p.Assemble, r.Query.LoadedMean)
	}
	tw.Flush()
}

// copyWorkspace copies a closed workspace folder: stored texts (content/,
// written once under their hash and replaced, never changed, by a rename)
// as hard links where the file system allows, everything else as copies.
func copyWorkspace(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if strings.HasPrefix(rel, "content"+string(filepath.Separator)) {
			if os.Link(path, dst) == nil {
				return nil
			}
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(dst)
		if err != nil {
			return err
		}
		_, err = io.Copy(out, in)
		if err == nil {
			err = out.Sync() // no write-back of the copy during the run
		}
		if err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}
