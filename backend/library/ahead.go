package library

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/loomwork/loom/backend/crash"
	"github.com/loomwork/loom/backend/embed"
	"github.com/loomwork/loom/backend/index"
	"github.com/loomwork/loom/backend/ingest"
	"github.com/loomwork/loom/backend/storage"
	"github.com/loomwork/loom/backend/vectors"
)

// An ingest works in two stages. The first, embedAhead, runs without the
// workspace's lock: it reads, parses and chunks the files the ingest will
// read, and embeds the sections whose vectors the embedder's log does not
// hold yet, storing them there. The second, under the lock, is the ingest
// itself: it finds every vector in the log and writes the library. With an
// embedder that takes its time (the full MiniLM encoder: about 30 ms a
// section on two cores; a model server), questions, the graph and every
// other reader go on while a folder of papers is embedded, and are held
// only while the library is written. The vectors are content-addressed, so
// one stored by a first stage whose second never ran (a cancel, a crash)
// is harmless, and found again by the next ingest.

// aheadWindow bounds the bytes of files parsed at once by the first stage;
// aheadKeep the bytes whose parsed documents it keeps for the second (the
// rest are read and parsed again there).
const (
	aheadWindow = 32 << 20
	aheadKeep   = 256 << 20
)

// ahead is what the first stage leaves the second.
type ahead struct {
	// parsed are the documents read and parsed, by file (see aheadKeep).
	parsed map[string]parsed
	// embedded lists the files whose every section has its vector; when
	// the ingest was cancelled during the first stage, the second reads
	// only these (so a cancel still keeps what was done).
	embedded map[string]bool
	canceled bool
}

// embedsAhead tells whether an embedder is slow enough for a first stage
// to pay: the offline table embeds a section in microseconds, so reading
// the files twice would cost more than it saves.
func embedsAhead(e embed.Embedder) bool {
	return !strings.HasPrefix(e.ID(), embed.OfflinePrefix)
}

// firstStage tells whether an ingest with embedder e has a first stage
// (embedAhead): e takes its time, and the workspace's vectors (if any)
// are e's — another embedder's are re-embedded first, under the lock.
// The caller holds the workspace's lock.
func (w *Library) firstStage(e embed.Embedder, ix *index.Graph) bool {
	stored := w.ws.Meta().Embedder
	return embedsAhead(e) && (stored == "" || stored == e.ID() || len(ix.Docs) == 0)
}

// embedAhead is an ingest's first stage (see above). It takes the
// workspace's lock only to choose the embedder and see which files have
// changed. It returns nil when there is nothing for it to do: an embedder
// that is fast anyway, or a workspace whose vectors are another
// embedder's (the second stage re-embeds it first, under the lock). A
// file that cannot be read or parsed is left to the second stage, which
// reports it. Progress reports the stage's files as they are embedded.
func (w *Library) embedAhead(ctx context.Context, files []ingest.File, roots []string, r *round, report func(Progress)) (*ahead, error) {
	w.ws.Lock()
	e, err := w.ws.Embedder(ctx)
	if err != nil {
		w.ws.Unlock()
		return nil, err
	}
	ix, err := w.ws.Index(ctx)
	if err != nil {
		w.ws.Unlock()
		return nil, err
	}
	if !w.firstStage(e, ix) {
		w.ws.Unlock()
		return nil, nil
	}
	vl := w.ws.Vectors()
	cs := w.changesOf(ctx, ix, files, roots, r)
	iopts, err := w.ws.IngestOptions()
	w.ws.Unlock()
	if err != nil {
		return nil, err
	}
	var todo []ingest.File
	for _, f := range files {
		if !cs.unchanged[f.Abs] {
			todo = append(todo, f)
		}
	}
	a := &ahead{parsed: map[string]parsed{}, embedded: map[string]bool{}}
	prog := Progress{Stage: StageEmbedding, FilesTotal: len(todo)}
	for _, f := range todo {
		prog.BytesTotal += f.Size
	}
	wall := time.Now()
	send := func() {
		prog.Elapsed = time.Since(wall)
		report(prog)
	}
	kept := int64(0)
	for start := 0; start < len(todo); {
		end := start
		for size := int64(0); end < len(todo) && (end == start || size+todo[end].Size <= aheadWindow); end++ {
			size += todo[end].Size
		}
		window := todo[start:end]
		start = end
		got := parseFilesOnce(ctx, window, iopts, r.parsedCode())
		for i, f := range window {
			if ctx.Err() != nil {
				a.canceled = true
				return a, nil
			}
			p := got[i]
			if p.err != nil || p.docs == nil {
				// left to the second stage, which reads it again and says
				// what is wrong (or that it was left out)
				prog.FilesDone++
				prog.BytesDone += f.Size
				continue
			}
			prog.Current = f.Path
			send()
			if err := embedFile(ctx, e, vl, p.docs, iopts, func(done, total int) {
				prog.Embedded, prog.ToEmbed = done, total
				send()
			}); err != nil {
				// Cancelled; or the embedder failed, and the second stage
				// tries again and reports it with the file.
				a.canceled = ctx.Err() != nil
				return a, nil
			}
			prog.Embedded, prog.ToEmbed = 0, 0
			a.embedded[f.Abs] = true
			if kept+f.Size <= aheadKeep {
				a.parsed[f.Abs] = p
				kept += f.Size
			}
			prog.FilesDone++
			prog.BytesDone += f.Size
		}
	}
	prog.Current = ""
	send()
	return a, nil
}

// parseFilesOnce is parseFiles, but for the files in have (parsed
// already), which it takes from there.
func parseFilesOnce(ctx context.Context, files []ingest.File, iopts ingest.Options, have map[string]parsed) []parsed {
	out := make([]parsed, len(files))
	var todo []ingest.File
	var at []int
	for i, f := range files {
		if p, ok := have[f.Abs]; ok {
			out[i] = p
			continue
		}
		todo = append(todo, f)
		at = append(at, i)
	}
	for j, p := range parseFiles(ctx, todo, iopts) {
		out[at[j]] = p
	}
	return out
}

// parseFiles reads and parses files on every core, in order.
func parseFiles(ctx context.Context, files []ingest.File, iopts ingest.Options) []parsed {
	out := make([]parsed, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Go(func() {
			for i := range next {
				data, err := ingest.ReadFile(files[i], iopts)
				p := parsed{size: len(data), err: err}
				if err == nil {
					p.docs, p.err = ingest.Parse(files[i].Abs, files[i].Path, files[i].Collection, data, iopts)
				}
				out[i] = p
			}
		})
	}
	for i := range files {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// embedFile embeds the sections of one file's documents whose vectors vl
// lacks and stores them there, as the second stage would chunk and key
// them (the documents themselves are left as parsed).
func embedFile(ctx context.Context, e embed.Embedder, vl *vectors.Log, docs []ingest.Document, iopts ingest.Options, onEmbed func(done, total int)) error {
	var keys, need []string
	seen := map[string]bool{}
	for _, d := range docs {
		d.Sections = slices.Clone(d.Sections)
		d.Chunk(iopts)
		for _, s := range d.Sections {
			k := index.ContentKey(storage.Hash(s.Text))
			if seen[k] || vl.Has(k) {
				continue
			}
			seen[k] = true
			keys = append(keys, k)
			need = append(need, s.EmbedText())
		}
	}
	if len(need) == 0 {
		return nil
	}
	step := len(need)
	if len(need) > EmbedChunk {
		step = EmbedChunk
		onEmbed(0, len(need))
	} else {
		onEmbed = nil
	}
	err := embedSteps(ctx, e, need, step, func(i int, v []float32) error {
		return vl.Put(keys[i], v) // fails when a re-embed closed the log
	}, func(done int) error {
		if onEmbed != nil {
			onEmbed(done, len(need))
		}
		return nil
	})
	if err != nil {
		_ = vl.Flush()
		return err
	}
	if err := vl.Flush(); err != nil {
		return err
	}
	crash.At("ingest-ahead-after-vectors")
	return nil
}

// embedSteps embeds texts step at a time, handing each vector to put with
// its text's index and telling after how many are done after each step.
// It stops at the first error (after's too), or when ctx ends.
func embedSteps(ctx context.Context, e embed.Embedder, texts []string, step int, put func(i int, v []float32) error, after func(done int) error) error {
	for start := 0; start < len(texts); start += step {
		end := min(start+step, len(texts))
		vecs, err := e.Embed(ctx, texts[start:end])
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			return err
		}
		if len(vecs) != end-start {
			return fmt.Errorf("embed with %s: got %d vectors for %d texts", e.ID(), len(vecs), end-start)
		}
		for k, v := range vecs {
			if err := put(start+k, v); err != nil {
				return err
			}
		}
		if err := after(end); err != nil {
			return err
		}
	}
	return nil
}
