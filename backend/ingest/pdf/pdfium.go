//go:build !js

package pdf

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/klippa-app/go-pdfium"
	pdfiumerrors "github.com/klippa-app/go-pdfium/errors"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
	"github.com/klippa-app/go-pdfium/webassembly"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// useCompilationCache is off only in the benchmark that measures a start
// without the cache.
var useCompilationCache = true

var engine struct {
	mu   sync.Mutex
	pool pdfium.Pool
}

// Close releases the process-wide pdfium engine; the next Extract starts
// a new one. Tests use it to measure the start-up.
func Close() error {
	engine.mu.Lock()
	defer engine.mu.Unlock()
	if engine.pool == nil {
		return nil
	}
	err := engine.pool.Close()
	engine.pool = nil
	return err
}

func enginePool() (pdfium.Pool, error) {
	engine.mu.Lock()
	defer engine.mu.Unlock()
	if engine.pool != nil {
		return engine.pool, nil
	}
	features := api.CoreFeaturesV2 | experimental.CoreFeaturesExceptionHandling
	// No WithCloseOnContextDone: it would let a call be cut short, but
	// wazero then starts a goroutine per call into pdfium, which makes
	// reading three to four times slower. pdfium is fuzzed hard; a file
	// that makes it loop would block its Read.
	config := wazero.NewRuntimeConfig().WithCoreFeatures(features)
	if cache := compilationCache(); cache != nil && useCompilationCache {
		config = config.WithCompilationCache(cache)
	}
	workers := min(runtime.GOMAXPROCS(0), 4)
	pool, err := webassembly.Init(webassembly.Config{
		MinIdle:       0,
		MaxIdle:       0,
		MaxTotal:      workers,
		RuntimeConfig: config,
		// pdfium reads the document through a callback: it needs no file
		// system, so it gets none.
		FSConfig: wazero.NewFSConfig(),
		Stdout:   io.Discard,
		Stderr:   io.Discard,
	})
	if err != nil {
		return nil, fmt.Errorf("start pdfium: %w", err)
	}
	engine.pool = pool
	return pool, nil
}

// compilationCache is wazero's cache of compiled pdfium in the user's
// cache folder, or nil when there is no usable folder (then every start
// compiles afresh).
func compilationCache() wazero.CompilationCache {
	dir, err := os.UserCacheDir()
	if err != nil {
		return nil
	}
	dir = filepath.Join(dir, "loom", "wazero")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil
	}
	cache, err := wazero.NewCompilationCacheWithDir(dir)
	if err != nil {
		return nil
	}
	return cache
}

// Extract reads the text, outline and information dictionary of a PDF
// with pdfium (compiled to WebAssembly, so no cgo and no system library).
// It refuses what it cannot read with one of the Err values of this
// package, wrapped with details where there are any.
func Extract(data []byte, opts ...Option) (raw *Raw, err error) {
	o := makeOptions(opts)
	if err := checkFile(data, o); err != nil {
		return nil, err
	}
	pool, err := enginePool()
	if err != nil {
		return nil, err
	}
	inst, err := pool.GetInstanceWithContext(context.Background())
	if err != nil {
		return nil, fmt.Errorf("start pdfium: %w", err)
	}
	defer func() {
		if r := recover(); r != nil {
			// pdfium trapped (or go-pdfium panicked): the instance is in
			// an unknown state, so it is killed rather than closed.
			_ = inst.Kill()
			raw, err = nil, fmt.Errorf("%w (pdfium failed: %v)", ErrDamaged, r)
			return
		}
		if inst.Close() != nil {
			_ = inst.Kill()
		}
	}()
	return extract(inst, data, o)
}

// checkFile refuses, before pdfium sees it, what is plainly not a whole
// PDF within the limits.
func checkFile(data []byte, o options) error {
	if int64(len(data)) > o.maxBytes {
		return fmt.Errorf("%w: %s, more than the %s Loom reads", ErrTooLarge, megabytes(int64(len(data))), megabytes(o.maxBytes))
	}
	if !bytes.Contains(data[:min(len(data), 1024)], []byte("%PDF-")) {
		return ErrNotPDF
	}
	if !bytes.Contains(data[max(0, len(data)-4096):], []byte("%%EOF")) {
		return ErrTruncated
	}
	return nil
}

func megabytes(n int64) string {
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

func extract(inst pdfium.Pdfium, data []byte, o options) (*Raw, error) {
	doc, err := inst.OpenDocument(&requests.OpenDocument{
		FileReader:     bytes.NewReader(data),
		FileReaderSize: int64(len(data)),
	})
	if err != nil {
		return nil, openError(err)
	}
	defer func() {
		_, _ = inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc.Document})
	}()
	count, err := inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: doc.Document})
	if err != nil {
		return nil, fmt.Errorf("%w (%v)", ErrDamaged, err)
	}
	if count.PageCount > o.maxPages {
		return nil, fmt.Errorf("%w: %d, more than the %d Loom reads", ErrTooManyPages, count.PageCount, o.maxPages)
	}
	if count.PageCount == 0 {
		return nil, fmt.Errorf("%w (it has no pages)", ErrDamaged)
	}
	raw := &Raw{
		Title:  metaText(inst, doc.Document, "Title"),
		Author: metaText(inst, doc.Document, "Author"),
	}
	tops := make([]float64, count.PageCount)
	for i := range count.PageCount {
		page, top, err := readPage(inst, doc.Document, i)
		if err != nil {
			return nil, fmt.Errorf("%w (page %d: %v)", ErrDamaged, i+1, err)
		}
		tops[i] = top
		raw.Pages = append(raw.Pages, page)
	}
	raw.Outline = readOutline(inst, doc.Document, tops)
	if !hasText(raw) {
		return nil, ErrNoTextLayer
	}
	return raw, nil
}

func openError(err error) error {
	switch {
	case errors.Is(err, pdfiumerrors.ErrPassword), errors.Is(err, pdfiumerrors.ErrSecurity):
		return ErrEncrypted
	case errors.Is(err, pdfiumerrors.ErrFormat), errors.Is(err, pdfiumerrors.ErrFile):
		return ErrDamaged
	}
	return fmt.Errorf("%w (%v)", ErrDamaged, err)
}

func metaText(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT, tag string) string {
	res, err := inst.FPDF_GetMetaText(&requests.FPDF_GetMetaText{Document: doc, Tag: tag})
	if err != nil {
		return ""
	}
	return res.Value
}
