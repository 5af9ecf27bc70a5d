//go:build !js

package backend

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/loomwork/loom/backend/assemble"
	"github.com/loomwork/loom/backend/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPromptIDsAreUniqueInTheWorkspace: a prompt writes each node's id as
// its shortest prefix (three hex digits at the least) that no other
// searchable node of the workspace shares, not only no other candidate of
// the question: the tools take the prefix and must find that node alone.
// The notes are many and alike, so that three digits often are not enough.
// The prompt writes the prefix in letters (model.PromptID); the tools take
// it so, and in hex too.
func TestPromptIDsAreUniqueInTheWorkspace(t *testing.T) {
	notes := t.TempDir()
	files := map[string]string{}
	for i := range 3000 {
		files[fmt.Sprintf("log/day-%04d.md", i)] = fmt.Sprintf("# Day %d\n\nThe keeper wrote entry %d of the tide table and the lamp's oil, %d litres.\n", i, i, 3+i%7)
	}
	writeTree(t, notes, files)
	wb := openBolt(t, t.TempDir())
	defer wb.Close()
	g := ingestedGraph(t, wb, notes)
	var all []string
	for _, n := range g.ContentNodes {
		all = append(all, n.ID)
	}

	res, err := wb.Query(context.Background(), QueryRequest{Question: "What did the keeper write about the lamp's oil and the tide table?", Budget: 6000})
	require.NoError(t, err)
	headers := regexp.MustCompile(`(?m)^\[([a-z]+)\]`).FindAllStringSubmatch(res.Prompt, -1)
	require.Greater(t, len(headers), 10, res.Prompt)
	candidates := map[string]bool{}
	for _, c := range res.Candidates {
		candidates[c.ID] = true
	}
	longer := 0 // prefixes that a node outside the candidates made longer
	for _, h := range headers {
		letters := h[1]
		short, ok := model.FromPromptID(letters)
		require.True(t, ok, "%s is an id in letters", letters)
		var owners []string
		for _, id := range all {
			if strings.HasPrefix(id, short) {
				owners = append(owners, id)
			}
		}
		require.Len(t, owners, 1, "%s names one node of the workspace", short)
		if len(short) > len("n-")+assemble.ShortIDHex {
			outside := false
			for _, id := range all {
				if !candidates[id] && id != owners[0] && strings.HasPrefix(id, short[:len(short)-1]) {
					outside = true
				}
			}
			if outside {
				longer++
			}
		}
		for _, raw := range []string{letters, "[" + letters + "]", short} {
			exp, err := wb.query.Expand(context.Background(), raw, "detailed")
			require.NoError(t, err, raw)
			assert.Equal(t, owners, exp.NodeIDs, raw)
		}
	}
	assert.Positive(t, longer, "a node that is no candidate lengthened some prefix (%d headers, %d candidates, %d nodes)", len(headers), len(candidates), len(all))
}
