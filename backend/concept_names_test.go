//go:build !js

package backend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Concept names a person can tell apart, through a real ingest and a
// re-embed: a manual page's DESCRIPTION names its concept with the page
// ("Description · cargo-build(1)"), and two concepts founded by sections
// of one heading in different documents do not share a name.
func TestConceptNamesAreToldApart(t *testing.T) {
	ctx := context.Background()
	docs := t.TempDir()
	write := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(docs, name), []byte(text), 0o644))
	}
	write("cargo-build.md", "# cargo-build(1)\n\n## DESCRIPTION\n\nCompile local packages and all of their dependencies into binaries and libraries.\n")
	write("cargo-clean.md", "# cargo-clean(1)\n\n## DESCRIPTION\n\nRemove artifacts from the target directory that Cargo has generated in the past.\n")
	write("registry.md", "# Registry Index\n\n## Configuration format\n\nThe config.json file at the root of the index names the download URL and the API URL of the registry.\n")
	write("credentials.md", "# Credential Providers\n\n## Configuration format\n\nA provider is a command with arguments that Cargo runs to read a token, written in the global credential-provider list.\n")
	// One long section cut in parts: each part founds a concept, named by what it is about.
	var long strings.Builder
	long.WriteString("# Momentum\n\n")
	for i := range 40 {
		fmt.Fprintf(&long, "Gradient descent with momentum step %d dampens oscillation across ravines of the loss landscape.\n\n", i)
	}
	for i := range 40 {
		fmt.Fprintf(&long, "Polynomial regression example %d fits noisy samples with quadratic features and ridge penalties.\n\n", i)
	}
	write("momentum.md", long.String())

	check := func(wb *Workbench, when string) {
		g, err := wb.ExportGraph(ctx, false)
		require.NoError(t, err)
		seen := map[string]int{}
		var names []string
		for _, c := range g.ConceptNodes {
			seen[c.Name]++
			names = append(names, c.Name)
		}
		for name, n := range seen {
			assert.Equal(t, 1, n, "%s: %d concepts are named %q (all: %v)", when, n, name, names)
			assert.NotContains(t, name, "DESCRIPTION", "%s: a manual page's heading is not shouted", when)
		}
		assert.Contains(t, names, "Description · cargo-build(1)", when)
		assert.Contains(t, names, "Description · cargo-clean(1)", when)
		n := 0
		for _, name := range names {
			if strings.HasPrefix(name, "Configuration format") {
				n++
			}
		}
		assert.Equal(t, 2, n, "%s: each document's configuration format founds its own concept (all: %v)", when, names)
	}
	wb := openBolt(t, t.TempDir(), WithEmbedder(hashEmbedder{}), WithConceptThreshold(0.99))
	defer wb.Close()
	_, err := wb.Ingest(ctx, []string{docs}, IngestOptions{})
	require.NoError(t, err)
	check(wb, "ingested")

	_, err = wb.Reembed(ctx, otherHash{}, "chosen by the test", nil)
	require.NoError(t, err)
	check(wb, "re-embedded")
}

// otherHash is hashEmbedder under another name: a re-embed to it makes
// every concept again.
type otherHash struct{ hashEmbedder }

func (otherHash) ID() string { return "test/hash-32b" }
