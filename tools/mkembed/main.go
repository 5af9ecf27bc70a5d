// Command mkembed distils the sentence encoder all-MiniLM-L6-v2 into the
// static table that backend/embed/offline embeds (offline.Distil explains
// the method). scripts/embeddings.sh runs it once the weights are there:
//
//	go run ./tools/mkembed -model .cache/minilm/package/model \
//	    -out backend/embed/offline/table/minilm-l6-m2v-256.bin
//
// It passes the vocabulary's 29,523 tokens through the encoder, 128 at a
// time over every core (about two minutes on two), and writes the table
// atomically (a temporary file renamed), so an interrupted run leaves no
// half table behind.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"time"

	"github.com/loomwork/loom/backend/embed/minilm"
	"github.com/loomwork/loom/backend/embed/offline"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("mkembed: ")
	dir := flag.String("model", ".cache/minilm/package/model", "directory with all-MiniLM-L6-v2's config.json, tokenizer.json and model.fp16.safetensors (scripts/minilm.sh)")
	out := flag.String("out", "backend/embed/offline/table/"+offline.TableFile, "table file to write")
	dims := flag.Int("dims", 256, "principal components kept")
	batch := flag.Int("batch", 128, "tokens through the encoder at once")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	enc, err := minilm.Load(*dir)
	if err != nil {
		log.Fatal(err)
	}
	sum, err := sha256File(filepath.Join(*dir, minilm.WeightsFile))
	if err != nil {
		log.Fatal(err)
	}
	source := fmt.Sprintf("all-MiniLM-L6-v2 (%s sha256 %s)", minilm.WeightsFile, sum)
	log.Printf("loaded %s in %v; %d threads", source, time.Since(start).Round(time.Millisecond), runtime.GOMAXPROCS(0))

	last := time.Now()
	// At 256 dimensions this is offline.ID; other sizes get IDs of their own.
	id := fmt.Sprintf("offline/minilm-l6-m2v-%d", *dims)
	b, stats, err := offline.Distil(ctx, enc, offline.DistilOptions{
		ID:     id,
		Source: source,
		Dims:   *dims,
		Batch:  *batch,
		Progress: func(done, total int) {
			if time.Since(last) > 10*time.Second || done == total {
				log.Printf("%d of %d tokens (%v)", done, total, time.Since(start).Round(time.Second))
				last = time.Now()
			}
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	// Check it reads back before it replaces anything.
	if _, err := offline.FromBytes(b); err != nil {
		log.Fatalf("the table does not read back: %v", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(*out), ".mkembed-*")
	if err != nil {
		log.Fatal(err)
	}
	if _, err := tmp.Write(b); err != nil {
		os.Remove(tmp.Name())
		log.Fatal(err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		log.Fatal(err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.Rename(tmp.Name(), *out); err != nil {
		os.Remove(tmp.Name())
		log.Fatal(err)
	}
	log.Printf("wrote %s (%s): %d bytes, %d dims keep %.1f%% of the variance, int8 rows at mean cosine %.5f (min %.5f) to their floats, in %v",
		*out, id, stats.Bytes, *dims, 100*stats.Variance, stats.MeanQuantCosine, stats.MinQuantCosine, time.Since(start).Round(time.Second))
}

func sha256File(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
