package code

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// benchFile is one file's path and bytes, read before the timer starts.
type benchFile struct {
	path string
	src  []byte
}

// goroot reads up to limit .go files from GOROOT/src, testdata folders
// left out.
func goroot(b *testing.B, limit int) []benchFile {
	b.Helper()
	root := filepath.Join(runtime.GOROOT(), "src")
	var files []benchFile
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable folder is skipped
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if len(files) >= limit {
			return filepath.SkipAll
		}
		if strings.HasSuffix(path, ".go") {
			src, err := os.ReadFile(path)
			if err == nil {
				files = append(files, benchFile{path, src})
			}
		}
		return nil
	})
	if err != nil || len(files) == 0 {
		b.Skipf("no Go sources under %s (%v)", root, err)
	}
	return files
}

// parseAll parses files with one worker per processor and reports files/s
// and MB/s.
func parseAll(b *testing.B, files []benchFile) {
	b.Helper()
	var size int64
	for _, f := range files {
		size += int64(len(f.src))
	}
	workers := runtime.GOMAXPROCS(0)
	var defs, failed atomic.Int64
	b.ResetTimer()
	for range b.N {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for {
					i := int(next.Add(1)) - 1
					if i >= len(files) {
						return
					}
					f, err := Parse(files[i].path, files[i].src)
					if err != nil {
						failed.Add(1)
						continue
					}
					defs.Add(int64(len(f.Defs)))
				}
			})
		}
		wg.Wait()
	}
	b.StopTimer()
	secs := b.Elapsed().Seconds()
	if failed.Load() > 0 {
		b.Errorf("%d parses failed", failed.Load())
	}
	b.ReportMetric(float64(len(files)*b.N)/secs, "files/s")
	b.ReportMetric(float64(size*int64(b.N))/secs/1e6, "MB/s")
	b.ReportMetric(float64(defs.Load())/float64(b.N)/float64(len(files)), "defs/file")
}

// BenchmarkParseGoroot parses up to 5,000 files of the Go standard library.
func BenchmarkParseGoroot(b *testing.B) {
	files := goroot(b, 5000)
	b.Logf("%d files, %d workers", len(files), runtime.GOMAXPROCS(0))
	parseAll(b, files)
}

// BenchmarkParseTreeSitter parses the tree-sitter samples and a generated
// Python corpus of 2,000 modules.
func BenchmarkParseTreeSitter(b *testing.B) {
	if !slices.Contains(Supported(), Python) {
		b.Skip("this build reads Go only")
	}
	var files []benchFile
	names, _ := filepath.Glob("testdata/*")
	for _, name := range names {
		if l, ok := LangOf(name); ok && l != Go {
			src, _ := os.ReadFile(name)
			files = append(files, benchFile{name, src})
		}
	}
	for i := range 2000 {
		files = append(files, benchFile{fmt.Sprintf("gen/m%d.py", i), pythonModule(i)})
	}
	parseAll(b, files)
}

// pythonModule makes a plausible module of about 150 lines.
func pythonModule(i int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "\"\"\"Module %d.\"\"\"\n\nimport os\nfrom typing import Optional\n\nLIMIT_%d = %d\n\n", i, i, i)
	for c := range 4 {
		fmt.Fprintf(&b, "\nclass Model%d_%d(Base):\n    \"\"\"A model.\"\"\"\n\n    def __init__(self, path: str, size: int = LIMIT_%d):\n        self.path = path\n        self.size = size\n\n", i, c, i)
		for m := range 5 {
			fmt.Fprintf(&b, "    def step%d(self, x: Optional[int]) -> int:\n        if x is None:\n            return helper_%d(self.size)\n        y = os.path.join(self.path, str(x))\n        return len(y) + self.step%d(x - 1)\n\n", m, i, (m+1)%5)
		}
	}
	fmt.Fprintf(&b, "\ndef helper_%d(n):\n    return [k * 2 for k in range(n)]\n", i)
	return []byte(b.String())
}
