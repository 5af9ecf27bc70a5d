package classify

import (
	"fmt"
	"strings"
)

// Fixtures shared by the tests and benchmarks.

const goPanic = `panic: runtime error: index out of range [5] with length 3

goroutine 1 [running]:
main.lookup(...)
	/home/ana/loom/backend/rank/rank.go:42
main.main()
	/home/ana/loom/cmd/loom/main.go:17 +0x1d
exit status 2
`

const pythonTraceback = `Traceback (most recent call last):
  File "/srv/app/ingest.py", line 88, in <module>
    main()
  File "/srv/app/ingest.py", line 80, in main
    load(path)
  File "/srv/app/loader.py", line 12, in load
    return json.loads(raw)
json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)
`

const javaTrace = `Exception in thread "main" java.lang.IllegalStateException: graph closed
	at com.loom.graph.Store.put(Store.java:120)
	at com.loom.graph.Ingest.run(Ingest.java:44)
	at java.base/java.lang.Thread.run(Thread.java:833)
Caused by: java.io.IOException: broken pipe
	at com.loom.io.Pipe.write(Pipe.java:19)
	... 3 more
`

const jsTrace = `TypeError: Cannot read properties of undefined (reading 'map')
    at renderList (/app/src/components/List.tsx:14:22)
    at async loadNodes (/app/src/stores/graph.ts:88:5)
    at /app/node_modules/vite/dist/client.mjs:120:3
`

const goCode = `package rank

import (
	"math"
	"sort"
)

// Score combines the ranking signals.
func Score(signals []float64, weights []float64) float64 {
	var total float64
	for i, s := range signals {
		total += s * weights[i]
	}
	return math.Max(0, total)
}
`

const pythonCode = `import os
import sys

# Load every markdown file under root.
def load(root):
    docs = []
    for name in os.listdir(root):
        if name.endswith(".md"):
            docs.append(read(name))
    return docs

if __name__ == "__main__":
    print(load(sys.argv[1]))
`

const markdownSection = `## 6.3 Context Manifest Header

Every assembled prompt starts with a manifest that tells the model what was
loaded and what was left out. The header is short on purpose: it costs a few
dozen tokens and saves the model from guessing about missing context.

- Loaded nodes are listed with their ranking score.
- Skipped nodes are counted, not listed.
- The budget line shows how much of the window is used.

The format is stable so tests can compare it byte for byte:

` + "```" + `
[Context loaded: 3 of 7 relevant nodes]
[Budget: 4,210 of 8,192 tokens]
` + "```" + `

Nodes that were skipped can be requested on a follow-up turn; the engine keeps
their identifiers for the rest of the session.
`

const prettyJSON = `{
  "id": "cn-auth-042",
  "type": "file_reference",
  "path": "docs/auth.md",
  "tokens": 812,
  "edges": [
    {"to": "cn-auth-007", "weight": 0.8},
    {"to": "cn-session-003", "weight": 0.4}
  ]
}
`

const xmlDoc = `<?xml version="1.0" encoding="UTF-8"?>
<workspace name="loom">
  <document path="docs/auth.md" tokens="812">
    <section>Authentication</section>
  </document>
  <document path="docs/graph.md" tokens="1204"/>
</workspace>
`

const csvData = `node_id,type,tokens,score
cn-001,concept,120,0.82
cn-002,content,812,0.77
cn-003,content,344,0.41
cn-004,concept,98,0.33
`

const yamlData = `workspace: loom
embedder: offline
window: 8192
reserve: 0.3
chunk_threshold: 1200
`

// logLines returns n log lines in a mix of common formats.
func logLines(n int) string {
	var b strings.Builder
	levels := []string{"INFO", "DEBUG", "WARN", "ERROR"}
	for i := 0; i < n; i++ {
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, "2026-11-22T04:%02d:%02d.%03dZ %s ingest: processed chunk %d of doc-%d (%d tokens)\n",
				i/60%60, i%60, i*7%1000, levels[i%4], i, i%9, 100+i*13%700)
		case 1:
			fmt.Fprintf(&b, "2026/11/22 04:%02d:%02d worker[%d] %s queue depth=%d latency=%dms\n",
				i/60%60, i%60, i%4, levels[(i+1)%4], i*3%17, 10+i%90)
		default:
			fmt.Fprintf(&b, "Nov 22 04:%02d:%02d loomd[%d]: [%s] embedder batch %d done\n",
				i/60%60, i%60, 4000+i, levels[(i+2)%4], i)
		}
	}
	return b.String()
}

// longProse returns roughly n bytes of varied markdown prose.
func longProse(n int) string {
	paras := []string{
		"Loom keeps a graph of concept nodes and content nodes. Each query is classified, ranked against the graph, and answered with a context that fits the budget of the model's window.",
		"The ranking combines several signals: semantic similarity from the embedder, recency, explicit references, and the distance between nodes in the graph. Weights start equal and are tuned by experiment.",
		"When an input is long and made of different parts, it is split before it is stored, so that a pasted log does not drown the question that came with it and later queries can load only what they need.",
		"## Storage\n\nEverything lives in plain files under the workspace directory: one file per document, an index, and the graph itself. Nothing is hidden in a database that cannot be inspected with ordinary tools.",
		"- Concept nodes name ideas.\n- Content nodes hold text.\n- Edges carry a weight and a reason.",
		"Staleness decays exponentially by default; linear and logarithmic curves are compared in the experiments described in section eight, using long multi-turn conversations as the benchmark.",
	}
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(paras[i%len(paras)])
		fmt.Fprintf(&b, " (see note %d)\n\n", i)
	}
	return b.String()
}
