package convert

import (
	"bytes"
	"encoding/xml"
	"io"
	"net/url"
	"path"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"

	"github.com/loomwork/loom/backend/ingest/bibtex"
	"github.com/loomwork/loom/backend/model"
)

// opfPackage is the part of an EPUB's package document Loom reads.
type opfPackage struct {
	Metadata struct {
		Titles      []string `xml:"title"`
		Creators    []string `xml:"creator"`
		Subjects    []string `xml:"subject"`
		Dates       []string `xml:"date"`
		Identifiers []string `xml:"identifier"`
	} `xml:"metadata"`
	Manifest []struct {
		ID         string `xml:"id,attr"`
		Href       string `xml:"href,attr"`
		MediaType  string `xml:"media-type,attr"`
		Properties string `xml:"properties,attr"`
	} `xml:"manifest>item"`
	Spine []struct {
		IDRef string `xml:"idref,attr"`
	} `xml:"spine>itemref"`
}

// EPUB converts an e-book: META-INF/container.xml names the package
// (.opf), whose spine gives the reading order; each chapter's body goes
// through the HTML path (chapter headings kept, scripts and styles
// dropped) and the chapters are joined in order. Links from one chapter
// to another become links to the heading's anchor ("#the-hand-loom"),
// since the book becomes one document. The title and creators come from
// the package's metadata, with dc:subject → Tags, the year of dc:date →
// Year and a dc:identifier that is a DOI → DOI.
func EPUB(data []byte) (*Doc, error) {
	a, err := openZip(data, "an .epub")
	if err != nil {
		return nil, err
	}
	if !a.has("META-INF/container.xml") {
		return nil, bad("is not an EPUB: the zip has no META-INF/container.xml (%s)", a.describeEntries())
	}
	var container struct {
		Rootfiles []struct {
			FullPath  string `xml:"full-path,attr"`
			MediaType string `xml:"media-type,attr"`
		} `xml:"rootfiles>rootfile"`
	}
	if err := decodeXML(a, "META-INF/container.xml", &container); err != nil {
		return nil, err
	}
	opfName := ""
	for _, r := range container.Rootfiles {
		if r.FullPath != "" && (opfName == "" || r.MediaType == "application/oebps-package+xml") {
			opfName = r.FullPath
		}
	}
	if opfName == "" {
		return nil, bad("is an EPUB whose META-INF/container.xml names no package (.opf) file")
	}
	opfName = strings.TrimPrefix(path.Clean("/"+opfName), "/")
	if !a.has(opfName) {
		return nil, bad("is an EPUB whose container names %s, which the zip does not have", opfName)
	}
	var pkg opfPackage
	if err := decodeXML(a, opfName, &pkg); err != nil {
		return nil, err
	}
	doc := &Doc{Meta: opfMeta(&pkg)}
	if len(pkg.Metadata.Titles) > 0 {
		doc.Title = collapseSpace(pkg.Metadata.Titles[0])
	}
	chapters := spineFiles(&pkg, path.Dir(opfName))
	if len(chapters) == 0 {
		return nil, bad("is an EPUB without a readable spine: its package lists no chapters")
	}
	inBook := map[string]bool{}
	for _, c := range chapters {
		inBook[c] = true
	}
	var md strings.Builder
	read := 0
	for _, name := range chapters {
		part, err := epubChapter(a, name, inBook)
		if err != nil {
			if isBudgetError(a) {
				return nil, err
			}
			continue // a chapter that is missing or unreadable; the others still count
		}
		read++
		if part != "" {
			if md.Len() > 0 {
				md.WriteString("\n")
			}
			md.WriteString(part)
		}
	}
	if read == 0 {
		return nil, bad("is an EPUB without a readable spine: none of its %d chapters can be read", len(chapters))
	}
	doc.Markdown = md.String()
	return doc, nil
}

// isBudgetError reports whether the archive's unpacking budget is spent.
func isBudgetError(a *archive) bool { return a.budget <= 0 }

// decodeXML unmarshals one XML entry, forgiving HTML entities and
// unquoted attributes as e-book readers do.
func decodeXML(a *archive, name string, v any) error {
	rc, err := a.open(name)
	if err != nil {
		return err
	}
	defer rc.Close()
	dec := xml.NewDecoder(rc)
	dec.CharsetReader = charset.NewReaderLabel
	dec.Strict = false
	dec.Entity = xml.HTMLEntity
	if err := dec.Decode(v); err != nil && err != io.EOF {
		return xmlProblem(err, "is an EPUB with a damaged %s", name)
	}
	return nil
}

// opfMeta reads the package's metadata.
func opfMeta(pkg *opfPackage) model.DocMeta {
	var m model.DocMeta
	md := pkg.Metadata
	for _, c := range md.Creators {
		if c = collapseSpace(c); c != "" {
			m.Authors = appendNew(m.Authors, c)
		}
	}
	for _, s := range md.Subjects {
		if s = collapseSpace(s); s != "" {
			m.Tags = appendNew(m.Tags, s)
		}
	}
	for _, d := range md.Dates {
		if m.Year = firstYear(d); m.Year != "" {
			break
		}
	}
	for _, id := range md.Identifiers {
		if m.DOI = bibtex.NormalizeDOI(id); m.DOI != "" {
			break
		}
	}
	return m
}

// spineFiles lists the zip entries of the spine's documents in reading
// order, leaving out the navigation document and anything that is not
// (X)HTML.
func spineFiles(pkg *opfPackage, dir string) []string {
	type item struct{ href, mediaType, properties string }
	items := map[string]item{}
	for _, it := range pkg.Manifest {
		items[it.ID] = item{it.Href, it.MediaType, it.Properties}
	}
	var files []string
	seen := map[string]bool{}
	for _, ref := range pkg.Spine {
		it, ok := items[ref.IDRef]
		if !ok || it.href == "" || strings.Contains(" "+it.properties+" ", " nav ") {
			continue
		}
		switch it.mediaType {
		case "application/xhtml+xml", "text/html", "application/x-dtbook+xml", "":
		default:
			continue
		}
		href, err := url.PathUnescape(it.href)
		if err != nil {
			href = it.href
		}
		name := strings.TrimPrefix(path.Clean("/"+path.Join(dir, href)), "/")
		if !seen[name] {
			seen[name] = true
			files = append(files, name)
		}
	}
	return files
}

// epubChapter converts one chapter's body.
func epubChapter(a *archive, name string, inBook map[string]bool) (string, error) {
	data, err := a.read(name)
	if err != nil {
		return "", err
	}
	root, err := parseHTML(expandRawTextTags(data))
	if err != nil {
		return "", err
	}
	body := root
	walk(root, func(n *html.Node) bool {
		if isElement(n, atom.Body) {
			body = n
			return false
		}
		return body == root
	})
	removeClutter(body, cleanChapter, "")
	markCodeLanguages(body)
	localLinks(body, path.Dir(name), inBook)
	return toMarkdown(body)
}

// localLinks makes a link to another chapter of the book a link to the
// anchor it points at (the book is one document now), and a link to a
// chapter as a whole plain text.
func localLinks(body *html.Node, dir string, inBook map[string]bool) {
	var unwrap []*html.Node
	walk(body, func(n *html.Node) bool {
		if !isElement(n, atom.A) {
			return true
		}
		u, err := url.Parse(attr(n, "href"))
		if err != nil || u.Scheme != "" || u.Host != "" || u.Path == "" {
			return true
		}
		if !inBook[strings.TrimPrefix(path.Clean("/"+path.Join(dir, u.Path)), "/")] {
			return true
		}
		if u.Fragment != "" {
			setAttr(n, "href", "#"+u.Fragment)
		} else {
			unwrap = append(unwrap, n)
		}
		return true
	})
	for _, a := range unwrap {
		for c := a.FirstChild; c != nil; c = a.FirstChild {
			a.RemoveChild(c)
			a.Parent.InsertBefore(c, a)
		}
		a.Parent.RemoveChild(a)
	}
}

// rawTextTags are elements whose content an HTML parser reads as raw
// text: written self-closed, as XHTML allows (<title/>), an HTML parser
// would take the rest of the file for their content.
var rawTextTags = []string{"title", "script", "style", "textarea", "iframe", "noscript", "xmp", "noembed", "noframes"}

// expandRawTextTags rewrites <title/> and its kind as <title></title>.
func expandRawTextTags(data []byte) []byte {
	if !bytes.Contains(data, []byte("/>")) {
		return data
	}
	var out []byte
	rest := data
	for {
		i := bytes.IndexByte(rest, '<')
		if i < 0 || i+1 >= len(rest) {
			break
		}
		tag := ""
		for _, t := range rawTextTags {
			if j := i + 1 + len(t); j < len(rest) && bytes.EqualFold(rest[i+1:j], []byte(t)) &&
				(rest[j] == '/' || rest[j] == ' ' || rest[j] == '\t' || rest[j] == '\n' || rest[j] == '\r') {
				tag = t
				break
			}
		}
		end := bytes.IndexByte(rest[i:], '>')
		if tag == "" || end < 0 || rest[i+end-1] != '/' {
			out = append(out, rest[:i+1]...)
			rest = rest[i+1:]
			continue
		}
		out = append(out, rest[:i+end-1]...)
		out = append(out, "></"+tag+">"...)
		rest = rest[i+end+1:]
	}
	if out == nil {
		return data
	}
	return append(out, rest...)
}
