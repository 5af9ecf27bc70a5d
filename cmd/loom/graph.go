package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/loomwork/loom/backend"
	"github.com/loomwork/loom/graphdb"
)

func cmdGraph(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("graph", stderr)
	var ws workspaceFlags
	ws.register(fs)
	format := fs.String("format", "text", "stats and clusters output: text or json")
	out := fs.String("out", "", "export: write graph.json here (default stdout)")
	withContent := fs.Bool("content", false, "export: include every node's text, so the file can be imported elsewhere")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageErr("graph: say stats, clusters, export or import")
	}
	if *format != "text" && *format != "json" {
		return usageErr("graph: --format must be text or json, not %q", *format)
	}
	switch pos[0] {
	case "stats", "clusters", "export", "import":
	default:
		return usageErr("graph: unknown subcommand %q (stats, clusters, export, import)", pos[0])
	}
	if pos[0] == "import" && len(pos) != 2 {
		return usageErr("graph import: give one graph.json file")
	}
	var wb *backend.Workbench
	if pos[0] == "import" {
		wb, err = ws.open(ctx, stderr)
	} else {
		wb, err = ws.openToRead(ctx, stderr)
	}
	if err != nil {
		return err
	}
	defer wb.Close()
	switch pos[0] {
	case "stats":
		st, err := wb.Stats(ctx)
		if err != nil {
			return err
		}
		if *format == "json" {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(st)
		}
		embedder := st.Embedder
		if embedder == "" {
			embedder = "(none yet)"
		}
		fmt.Fprintf(stdout, "workspace      %s (%s)\ndocuments      %d\ncontent nodes  %d\nconcept nodes  %d\nedges          %d\ntokens         %d\nembedder       %s\n",
			st.Workspace, st.Backend, st.Documents, st.ContentNodes, st.ConceptNodes, st.Edges, st.Tokens, embedder)
		return nil
	case "clusters":
		cs, err := wb.Clusters(ctx)
		if err != nil {
			return err
		}
		if *format == "json" {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(cs)
		}
		printClusters(stdout, cs)
		return nil
	case "export":
		g, err := wb.ExportGraph(ctx, *withContent)
		if err != nil {
			return err
		}
		w := stdout
		if *out != "" {
			f, err := os.Create(*out)
			if err != nil {
				return fmt.Errorf("export: %w", err)
			}
			defer f.Close()
			w = f
		}
		return g.Encode(w)
	default:
		f, err := os.Open(pos[1])
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		defer f.Close()
		g, err := graphdb.DecodeGraphJSON(f)
		if err != nil {
			return fmt.Errorf("import %s: %w", pos[1], err)
		}
		if err := wb.ImportGraph(ctx, g); err != nil {
			return err
		}
		st, _ := wb.Stats(ctx)
		fmt.Fprintf(stdout, "imported %d documents, %d content nodes, %d concepts\n", st.Documents, st.ContentNodes, st.ConceptNodes)
		return nil
	}
}

// printClusters lists clusters as a table, largest first: the id a
// question's --scope takes (cluster:ID), the name, and the counts.
func printClusters(w io.Writer, cs []backend.GraphCluster) {
	if len(cs) == 0 {
		fmt.Fprintln(w, "no clusters: the workspace has no concepts yet (ingest something first)")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tCONCEPTS\tSECTIONS\tDOCUMENTS")
	for _, c := range cs {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\n", c.ID, c.Name, c.Concepts, c.Sections, c.Documents)
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%d clusters; ask within one with: loom query --scope cluster:ID QUESTION\n", len(cs))
}
