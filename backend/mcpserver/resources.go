package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/loomwork/loom/backend"
)

// The resource templates.
const (
	DocumentTemplate = "loom://document/{id}"
	NodeTemplate     = "loom://node/{id}"
)

// maxListedNeighbours bounds the neighbours a node resource lists.
const maxListedNeighbours = 30

func (s *Server) addResources() {
	s.srv.AddResourceTemplate(&mcp.ResourceTemplate{Name: "document", Title: "Loom document", URITemplate: DocumentTemplate, MIMEType: "text/markdown",
		Description: "A document of the workspace by its id (the catalog lists them): its title, source and sections in order, each with its node id and cite."},
		s.readDocument)
	s.srv.AddResourceTemplate(&mcp.ResourceTemplate{Name: "node", Title: "Loom node", URITemplate: NodeTemplate, MIMEType: "text/markdown",
		Description: "A node by its id: a section with its text, source, concepts and neighbours, or a concept with the sections about it."},
		s.readNode)
}

func resourceID(uri, prefix string) (string, bool) {
	id, ok := strings.CutPrefix(uri, prefix)
	if !ok || id == "" || strings.ContainsAny(id, "/?#") {
		return "", false
	}
	return id, true
}

func (s *Server) readDocument(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	id, ok := resourceID(uri, "loom://document/")
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	v, err := s.wb.DocumentSource(ctx, id)
	if errors.Is(err, backend.ErrNotFound) {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if err != nil {
		return nil, s.failed(ctx, "read "+uri, err)
	}
	d := v.Document
	var b strings.Builder
	title := d.Title
	if title == "" {
		title = d.Path
	}
	fmt.Fprintf(&b, "# %s\n\n", title)
	fmt.Fprintf(&b, "document %s · %s in collection %s · %s · %d sections\n", d.ID, d.Path, d.Collection, d.Format, len(v.Sections))
	m := d.Meta
	if len(m.Authors) > 0 {
		fmt.Fprintf(&b, "authors: %s\n", strings.Join(m.Authors, "; "))
	}
	for _, kv := range [][2]string{{"year", m.Year}, {"venue", m.Venue}, {"doi", m.DOI}, {"arxiv", m.ArXiv}} {
		if kv[1] != "" {
			fmt.Fprintf(&b, "%s: %s\n", kv[0], kv[1])
		}
	}
	if len(m.Tags) > 0 {
		fmt.Fprintf(&b, "tags: %s\n", strings.Join(m.Tags, ", "))
	}
	head := b.String()
	var body strings.Builder
	var ids []string
	var omitted []string
	count := 0
	for _, sec := range v.Sections {
		if sec.Omitted || sec.Unavailable != "" {
			reason := "omitted: the document is long"
			if sec.Unavailable != "" {
				reason = "unavailable: " + sec.Unavailable
			}
			omitted = append(omitted, fmt.Sprintf("- [%s] %s (%s; read %s)", sec.ID, sec.Cite, reason, nodeURI(sec.ID)))
			continue
		}
		block := fmt.Sprintf("\n## [%s] %s\n\n%s\n", sec.ID, sec.Cite, sec.Text)
		n := countTokens(block)
		if count+n > s.opts.ResultTokens {
			omitted = append(omitted, fmt.Sprintf("- [%s] %s (omitted: the resource is cut at %d tokens; read %s)", sec.ID, sec.Cite, s.opts.ResultTokens, nodeURI(sec.ID)))
			continue
		}
		count += n
		body.WriteString(block)
		ids = append(ids, sec.ID)
	}
	text := head + body.String()
	if len(omitted) > 0 {
		if len(omitted) > maxListed {
			omitted = append(omitted[:maxListed], fmt.Sprintf("- … %d more", len(omitted)-maxListed))
		}
		text += "\n## Sections not shown\n\n" + strings.Join(omitted, "\n") + "\n"
	}
	i := info(ctx)
	i.nodeIDs, i.tokens, i.trimmed = ids, count, len(omitted) > 0
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: text}}}, nil
}

func (s *Server) readNode(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	id, ok := resourceID(uri, "loom://node/")
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	n, err := s.wb.Node(ctx, id)
	if errors.Is(err, backend.ErrNotFound) {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if err != nil {
		return nil, s.failed(ctx, "read "+uri, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# [%s] %s\n\n", n.ID, n.Label)
	if n.Kind == "concept" {
		b.WriteString("concept\n")
		if t := strings.TrimSpace(n.Text); t != "" {
			fmt.Fprintf(&b, "\n%s\n", t)
		}
	} else {
		cite := n.Cite
		if cite == "" {
			cite = n.Reference
		}
		fmt.Fprintf(&b, "%s section · %s · collection %s · %d tokens", n.Source, cite, n.Collection, n.Tokens)
		if n.Document != "" {
			fmt.Fprintf(&b, " · document %s", documentURI(n.Document))
		}
		b.WriteString("\n")
		if len(n.Concepts) > 0 {
			var cs []string
			for _, c := range n.Concepts[:min(10, len(n.Concepts))] {
				cs = append(cs, fmt.Sprintf("%s (%.2f)", c.Name, c.Similarity))
			}
			fmt.Fprintf(&b, "concepts: %s\n", strings.Join(cs, "; "))
		}
		text, _, cut := trim(strings.TrimSpace(n.Text), s.opts.ResultTokens)
		fmt.Fprintf(&b, "\n%s\n", text)
		if cut {
			fmt.Fprintf(&b, "\n[the text is cut at %d tokens: get_window reads the rest]\n", s.opts.ResultTokens)
			info(ctx).trimmed = true
		}
	}
	if len(n.Neighbours) > 0 {
		b.WriteString("\n## Neighbours\n\n")
		for _, nb := range n.Neighbours[:min(maxListedNeighbours, len(n.Neighbours))] {
			fmt.Fprintf(&b, "- [%s] %s (%s, %s %.2f) %s\n", nb.ID, nb.Label, nb.Kind, nb.Edge, nb.Weight, nodeURI(nb.ID))
		}
		if len(n.Neighbours) > maxListedNeighbours {
			fmt.Fprintf(&b, "- … %d more\n", len(n.Neighbours)-maxListedNeighbours)
		}
	}
	text := b.String()
	i := info(ctx)
	i.nodeIDs, i.tokens = []string{n.ID}, countTokens(text)
	if n.Cite != "" {
		i.cites = map[string]string{n.ID: n.Cite}
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: text}}}, nil
}
