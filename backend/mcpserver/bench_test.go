package mcpserver_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/backend/mcpserver"
	"github.com/loomwork/loom/backend/synth"
)

// BenchmarkGetContext measures a get_context call (budget 4,000) on a
// synthetic workspace of 1,000 and 50,000 nodes: in process (Workbench.Query,
// what the tool runs), over a stdio-like pipe (newline-delimited JSON-RPC
// through os pipes, as a client that spawns `loom mcp` talks to it) and over
// Streamable HTTP on loopback with the bearer token. Ingesting 50,000 nodes
// takes about half a minute before the clock starts:
//
//	go test -run x -bench GetContext -benchtime 200x ./backend/mcpserver/
//
// The server here shares the benchmark's process; `loom bench mcp` times
// the same calls against `loom mcp` started as a client starts it (a child
// process over stdio, and over HTTP), with percentiles.
func BenchmarkGetContext(b *testing.B) {
	for _, nodes := range []int{1000, 50000} {
		b.Run(fmt.Sprintf("nodes=%d", nodes), func(b *testing.B) {
			ctx := context.Background()
			corpus := b.TempDir()
			if err := synth.Generate(corpus, nodes, 1); err != nil {
				b.Fatal(err)
			}
			wb, err := backend.New(ctx, backend.Config{Dir: filepath.Join(b.TempDir(), "ws"), Embedder: "offline"})
			if err != nil {
				b.Fatal(err)
			}
			defer wb.Close()
			if _, err := wb.Ingest(ctx, []string{corpus}, backend.IngestOptions{}); err != nil {
				b.Fatal(err)
			}
			if err := wb.Warm(ctx); err != nil {
				b.Fatal(err)
			}
			qs := synth.Questions(64, 1)
			s, err := mcpserver.New(wb, mcpserver.Options{})
			if err != nil {
				b.Fatal(err)
			}

			b.Run("in-process", func(b *testing.B) {
				for i := 0; b.Loop(); i++ {
					if _, err := wb.Query(ctx, backend.QueryRequest{Question: qs[i%len(qs)], Budget: 4000, NoTouch: true}); err != nil {
						b.Fatal(err)
					}
				}
			})

			b.Run("stdio", func(b *testing.B) {
				cr, sw := io.Pipe() // server → client
				sr, cw := io.Pipe() // client → server
				ss, err := s.MCP().Connect(ctx, &mcp.IOTransport{Reader: sr, Writer: sw}, nil)
				if err != nil {
					b.Fatal(err)
				}
				defer ss.Close()
				cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &mcp.IOTransport{Reader: cr, Writer: cw}, nil)
				if err != nil {
					b.Fatal(err)
				}
				defer cs.Close()
				benchCalls(b, cs, qs)
			})

			b.Run("http", func(b *testing.B) {
				token, _, err := mcpserver.Token(wb.Dir())
				if err != nil {
					b.Fatal(err)
				}
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					b.Fatal(err)
				}
				srv := &http.Server{Handler: s.HTTPHandler(token)}
				go srv.Serve(ln)
				defer srv.Close()
				client := &http.Client{Transport: bearer{token}}
				cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx,
					&mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + mcpserver.HTTPPath, HTTPClient: client, MaxRetries: -1}, nil)
				if err != nil {
					b.Fatal(err)
				}
				defer cs.Close()
				benchCalls(b, cs, qs)
			})
		})
	}
}

func benchCalls(b *testing.B, cs *mcp.ClientSession, qs []string) {
	for i := 0; b.Loop(); i++ {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_context", Arguments: map[string]any{"topic": qs[i%len(qs)], "max_tokens": 4000}})
		if err != nil {
			b.Fatal(err)
		}
		if res.IsError {
			b.Fatal(text(res))
		}
	}
}
