//go:build !js

package query

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/workspace"
)

// TestCodeIsHeldToItsOwnRules, through Pipeline.Query on the source of
// Requests with the workspace's own config.json: the candidates the
// symbol graph knows are definitions; a definition outside the best hit's
// file (models.py) stays out below other_file_cut × the best, and comes in
// with the rule off; a higher code_cut leaves out definitions of the best
// hit's own file that the default takes.
func TestCodeIsHeldToItsOwnRules(t *testing.T) {
	src := testdataCopy(t, "eval", "py-requests", "docs", "requests")
	dir := t.TempDir()
	ingestInto(t, dir, src)
	relevant := func(ranking map[string]any, question string) map[string]bool {
		t.Helper()
		path := filepath.Join(dir, workspace.ConfigFile)
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		var cfg map[string]map[string]any
		require.NoError(t, json.Unmarshal(b, &cfg))
		for k, v := range ranking {
			cfg["ranking"][k] = v
		}
		b, err = json.Marshal(cfg)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(path, b, 0o644))
		p := openPipeline(t, dir)
		res, err := p.Query(context.Background(), QueryRequest{Question: question, Budget: 4000, NoTouch: true})
		require.NoError(t, err)
		require.NoError(t, p.ws.Close()) // the next setting opens it again
		out := map[string]bool{}
		for _, c := range res.Candidates {
			assert.True(t, c.Definition, "%s: Python source is definitions", c.Ref)
			out[c.Ref] = c.Relevant
		}
		return out
	}

	body := "How is the request body built from a dict of form fields versus a JSON object versus a generator, and when is Content-Length set?"
	on := relevant(map[string]any{}, body)
	require.True(t, on["models.py#PreparedRequest.prepare_body"], "the best hit's file")
	assert.False(t, on["structures.py#CaseInsensitiveDict"], "another file, under 0.85 × the best")
	off := relevant(map[string]any{"other_file_cut": 0}, body)
	assert.True(t, off["structures.py#CaseInsensitiveDict"], "with the file rule off it passes the code cut")

	proxy := "How does the no-proxy setting decide that a host bypasses the proxy, including IP ranges in CIDR notation?"
	low := relevant(map[string]any{"other_file_cut": 0.85}, proxy)
	require.True(t, low["utils.py#should_bypass_proxies"])
	assert.True(t, low["utils.py#resolve_proxies"], "0.65 × the best, over the code cut")
	high := relevant(map[string]any{"code_cut": 0.7}, proxy)
	assert.True(t, high["utils.py#should_bypass_proxies"])
	assert.False(t, high["utils.py#resolve_proxies"], "under a code cut of 0.7")
}
