package abstract

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loomwork/loom/backend/tokens"
)

func defSummary(t *testing.T, d Definition, text string, level Level, limit int) string {
	t.Helper()
	if d.Count == nil {
		d.Count = wordCounter
	}
	out, err := d.Summarize(context.Background(), text, level, limit)
	require.NoError(t, err)
	assert.LessOrEqual(t, d.Count(out), limit, "within the limit: %q", out)
	return out
}

// wordCounter counts words and punctuation runs, roughly as BPE does.
func wordCounter(s string) int { return len(strings.Fields(s)) }

const goResolve = `// resolve maps a section's links to document ids, each once. A link
// that names nothing in the collection is left out.
//
// It reads [[wiki]] links and markdown links alike:
//
//	r.resolve(doc, []string{"[[Note]]", "other.md"})
//
// Unknown targets are dropped.
func (r *linkResolver) resolve(d ingest.Document, links []string) []string {
	if d.Format == ingest.FormatBEIR {
		return nil
	}
	var out []string
	return out
}`

func TestDefinitionSummaryIsTheDeclarationAndTheDocComment(t *testing.T) {
	d := Definition{Signature: "func (r *linkResolver) resolve(d ingest.Document, links []string) []string", Name: "linkResolver.resolve"}
	got := defSummary(t, d, goResolve, Summary, 60)
	lines := strings.Split(got, "\n")
	require.Len(t, lines, 2, got)
	assert.Equal(t, d.Signature, lines[0])
	assert.Equal(t, "resolve maps a section's links to document ids, each once. A link that names nothing in the collection is left out. It reads [[wiki]] links and markdown links alike: Unknown targets are dropped.", lines[1],
		"sentences in order, markers off, the code example left out")
	assert.NotContains(t, got, "//")
	assert.NotContains(t, got, "if d.Format", "no body when there is a doc comment")

	short := defSummary(t, d, goResolve, Summary, 25)
	assert.Equal(t, d.Signature+"\nresolve maps a section's links to document ids, each once.", short, "whole sentences while they fit")
}

func TestDefinitionEssenceIsTheDocCommentsFirstSentence(t *testing.T) {
	d := Definition{Signature: "func (r *linkResolver) resolve(d ingest.Document, links []string) []string", Name: "linkResolver.resolve"}
	assert.Equal(t, "resolve maps a section's links to document ids, each once.", defSummary(t, d, goResolve, Essence, 30))

	// a sentence that does not name the definition gets its name in front
	py := "@app.get(\"/items\")\ndef read_items(q: str = None):\n    \"\"\"Return the items that match a query.\n\n    Args:\n        q: the query\n    \"\"\"\n    return db.find(q)\n"
	pd := Definition{Signature: "def read_items(q: str = None):", Name: "read_items"}
	assert.Equal(t, "read_items: Return the items that match a query.", defSummary(t, pd, py, Essence, 30))
	assert.Equal(t, "def read_items(q: str = None):\nReturn the items that match a query.", defSummary(t, pd, py, Summary, 14), "a docstring's Args section is left out")

	// without a doc comment, the declaration
	bare := "func add(a, b int) int {\n\treturn a + b\n}"
	assert.Equal(t, "func add(a, b int) int", defSummary(t, Definition{Signature: "func add(a, b int) int", Name: "add"}, bare, Essence, 30))
}

func TestDefinitionSummaryInEachLanguage(t *testing.T) {
	cases := []struct {
		name, text, sig, want string
	}{
		{"jsdoc", "/**\n * Flushes pending writes to IndexedDB.\n * @param force write even when nothing changed\n */\nasync flush(force = false): Promise<void> {\n  await this.db.put(this.pending);\n}",
			"async flush(force = false): Promise<void>", "async flush(force = false): Promise<void>\nFlushes pending writes to IndexedDB."},
		{"rust", "/// Parses a manifest.\n///\n/// Fails on unknown keys.\n#[inline]\npub fn parse(s: &str) -> Result<Manifest> {\n    todo!()\n}",
			"pub fn parse(s: &str) -> Result<Manifest>", "pub fn parse(s: &str) -> Result<Manifest>\nParses a manifest. Fails on unknown keys."},
		{"java", "/** Opens the store. Creates it when missing. */\npublic Store open(Path p) throws IOException {\n  return new Store(p);\n}",
			"public Store open(Path p) throws IOException", "public Store open(Path p) throws IOException\nOpens the store. Creates it when missing."},
		{"c block", "/* Counts the set bits of x. */\nstatic int popcount(unsigned x) {\n  return __builtin_popcount(x);\n}",
			"static int popcount(unsigned x)", "static int popcount(unsigned x)\nCounts the set bits of x."},
		{"python hash comments", "# Cache of parsed files.\n# Cleared on reload.\n_cache = {}",
			"_cache = {}", "_cache = {}\nCache of parsed files. Cleared on reload."},
		{"no doc: the first lines", "func add(a, b int) int {\n\tsum := a + b\n\treturn sum\n}",
			"func add(a, b int) int", "func add(a, b int) int\n\tsum := a + b\n\treturn sum\n}"},
		{"c directive is code", "#define MAX 10\nint limit = MAX;\nint other = limit + MAX * 2;", "#define MAX 10", "#define MAX 10\nint limit = MAX;"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// a limit under the text's own size, so that it is summarised
			limit := min(wordCounter(c.text)-1, 40)
			got := defSummary(t, Definition{Signature: c.sig}, c.text, Summary, limit)
			assert.Equal(t, c.want, got)
		})
	}
}

func TestDefinitionKeepsToItsLimit(t *testing.T) {
	d := Definition{Count: wordCounter, Signature: "func (r *linkResolver) resolve(d ingest.Document, links []string) []string", Name: "linkResolver.resolve"}
	for limit := 1; limit <= 80; limit++ {
		for _, l := range []Level{Summary, Essence} {
			out, err := d.Summarize(context.Background(), goResolve, l, limit)
			require.NoError(t, err, "limit %d", limit)
			assert.LessOrEqual(t, wordCounter(out), limit, "%s at %d: %q", l, limit, out)
			assert.NotEmpty(t, out)
			assert.False(t, strings.HasSuffix(out, ":"), "%s at %d ends on a colon: %q", l, limit, out)
		}
	}
	_, err := d.Summarize(context.Background(), "  \n", Summary, 10)
	assert.ErrorIs(t, err, ErrEmptyText)
}

func TestDefinitionSummaryLeavesOutASentenceCutToAStub(t *testing.T) {
	text := "// newLinkResolver makes a resolver over the documents in docs and the\n// files of a run (either may be nil).\nfunc newLinkResolver(docs map[string]*model.Document, files []ingest.File) *linkResolver {\n\treturn &linkResolver{docs: docs, files: files}\n}"
	d := Definition{Signature: "func newLinkResolver(docs map[string]*model.Document, files []ingest.File) *linkResolver", Name: "newLinkResolver"}
	assert.Equal(t, d.Signature, defSummary(t, d, text, Summary, 8), "not the declaration and \"newLinkResolver…\"")
	assert.Equal(t, d.Signature+"\nnewLinkResolver makes a resolver over the documents…", defSummary(t, d, text, Summary, 13))
}

func TestFileSummaryReadsItsFirstComments(t *testing.T) {
	text := "package ingest\n\nimport (\n\t\"bytes\"\n\t\"strings\"\n)\n\n// Obsidian's links are read by an inline parser of goldmark's. A section\n// records each in Links whole, as written.\n\nvar x = 1\n"
	d := Definition{Signature: "package ingest", File: true}
	assert.Equal(t, "package ingest\nObsidian's links are read by an inline parser of goldmark's. A section records each in Links whole, as written.", defSummary(t, d, text, Summary, 25))
	assert.Equal(t, "Obsidian's links are read by an inline parser of goldmark's.", defSummary(t, d, text, Essence, 12))
}

func TestDefinitionOfOnlyComments(t *testing.T) {
	text := "// Package pdf turns a PDF into blocks. It works in two steps.\n//\n// Read is the two together.\n"
	d := Definition{File: true}
	assert.Equal(t, "Package pdf turns a PDF into blocks. It works in two steps.", defSummary(t, d, text, Summary, 12))
	assert.Equal(t, "Package pdf turns a PDF into blocks.", defSummary(t, d, text, Essence, 8))
}

func TestDefinitionWithoutDeclarationOrSentence(t *testing.T) {
	for _, l := range []Level{Summary, Essence} {
		got := defSummary(t, Definition{}, "/* */\n/*\n*/\n{ x y z w }", l, 3)
		assert.NotEmpty(t, got, l)
	}
}

// requestsSet is RequestsCookieJar.set of Requests (Apache-2.0), as the
// Python dev set holds it.
const requestsSet = `def set(
        self, name: str, value: str | Morsel[dict[str, str]] | None, **kwargs: Any
    ) -> Cookie | None:
        """Dict-like set() that also supports optional domain and path args in
        order to resolve naming collisions from using one cookie jar over
        multiple domains.
        """
        # support client code that unsets cookies by assignment of a None value:
        if value is None:
            remove_cookie_by_name(
                self, name, domain=kwargs.get("domain"), path=kwargs.get("path")
            )
            return`

func TestDefinitionSummaryShortensADeclarationThatLeavesNoRoom(t *testing.T) {
	d := Definition{Count: Counter(tokens.Default().Count), Name: "RequestsCookieJar.set",
		Signature: "def set( self, name: str, value: str | Morsel[dict[str, str]] | None, **kwargs: Any ) -> Cookie | None:"}
	got := defSummary(t, d, requestsSet, Summary, 30)
	assert.Equal(t, "def set(self, name, value, **kwargs) -> Cookie | None:\nDict-like set() that also supports optional domain and path args in…", got,
		"the parameters' names, and what set does")
	assert.Equal(t, d.Signature+"\nDict-like set() that also supports optional domain and path args in order to resolve naming collisions from using one cookie jar over multiple domains.",
		defSummary(t, d, requestsSet, Summary, 80), "the whole declaration when there is room")
}

func TestCompactSignature(t *testing.T) {
	for _, c := range []struct{ sig, want string }{
		{"def get(self, name: str, default: str | None = None, domain: str | None = None) -> str | None:",
			"def get(self, name, default, domain) -> str | None:"},
		{"async def fetch(url: str, *args: Any, timeout: float = 3.0, **kw: dict[str, int]) -> bytes:",
			"async def fetch(url, *args, timeout, **kw) -> bytes:"},
		{"func (w *Library) Documents(ctx context.Context, opts ...Option) ([]DocumentInfo, error)",
			"func (w *Library) Documents(ctx, opts) ([]DocumentInfo, error)"},
		{"func add(a, b int, f func(x, y int) error) int", "func add(a, b, f) int"},
		{"pub fn parse(s: &str, opts: HashMap<String, Vec<u8>>) -> Result<Manifest, Error>",
			"pub fn parse(s, opts) -> Result<Manifest, Error>"},
		{"export function render(node: Node, ctx: { depth: number }, cb: (a: T) => void = noop): string",
			"export function render(node, ctx, cb): string"},
		{"def get( # type: ignore[override] self, name: str, default: str | None = None ) -> str | None:",
			"def get(self, name, default) -> str | None:"}, // indexed before headers left their comments out
		{"func Map[T, U any](xs []T, f func(T) U) []U", "func Map[T, U any](xs, f) []U"},
		{"fn longest<'a>(x: &'a str, y: &'a str) -> &'a str", "fn longest<'a>(x, y) -> &'a str"},
		{"public Store open(Path p) throws IOException", "public Store open(Path p) throws IOException"}, // Java: types first, kept
		{"def broken(self, x: int", "def broken(self, x: int"},                                           // unclosed: kept
	} {
		assert.Equal(t, c.want, compactSignature(c.sig), c.sig)
	}
}

// requestsResolveRedirects is the start of Requests' SessionRedirectMixin.
// resolve_redirects (sessions.py, Apache-2.0): a declaration of twelve
// lines, then a docstring.
const requestsResolveRedirects = `    def resolve_redirects(
        self,
        resp: Response,
        req: PreparedRequest,
        stream: bool = False,
        timeout: _t.TimeoutType = None,
        verify: _t.VerifyType = True,
        cert: _t.CertType = None,
        proxies: dict[str, str] | None = None,
        yield_requests: bool = False,
        **adapter_kwargs: Any,
    ) -> Generator[Response, None, None]:
        """Receives a Response. Returns a generator of Responses or Requests."""

        hist: list[Response] = []  # keep track of history

        url = self.get_redirect_target(resp)
        previous_fragment = urlparse(req.url).fragment
        while url:
            prepared_request = req.copy()`

// A declaration over many lines ends where its parentheses close: the
// docstring after it is found, and without one the body's first lines are
// those after the declaration, not its parameters again.
func TestDefinitionSummaryReadsPastALongDeclaration(t *testing.T) {
	count := Counter(tokens.Default().Count)
	sig := strings.Join(strings.Fields(strings.SplitN(requestsResolveRedirects, ":\n", 2)[0]+":"), " ")
	d := Definition{Count: count, Name: "SessionRedirectMixin.resolve_redirects", Signature: sig}
	got := defSummary(t, d, requestsResolveRedirects, Summary, 60)
	assert.Equal(t, "def resolve_redirects(self, resp, req, stream, timeout, verify, cert, proxies, yield_requests, **adapter_kwargs) -> Generator[Response, None, None]:\nReceives a Response. Returns a generator of Responses or Requests.", got)
	assert.Equal(t, "resolve_redirects: Receives a Response.", defSummary(t, d, requestsResolveRedirects, Essence, 30))

	undocumented := strings.Replace(requestsResolveRedirects, `        """Receives a Response. Returns a generator of Responses or Requests."""
`, "", 1)
	got = defSummary(t, d, undocumented, Summary, 90)
	assert.True(t, strings.HasPrefix(got, "def resolve_redirects("), got)
	assert.Contains(t, got, "\n        hist: list[Response] = []", "the body's first lines follow the declaration")
	assert.Equal(t, 1, strings.Count(got, "resp: Response")+strings.Count(got, "resp,"), "the parameters once: %q", got)

	// The index clips a long declaration ("…"): the text has it whole.
	clipped := Definition{Count: count, Name: d.Name, Signature: sig[:120] + "…"}
	assert.Equal(t, defSummary(t, d, requestsResolveRedirects, Summary, 60), defSummary(t, clipped, requestsResolveRedirects, Summary, 60))
}

// Brackets in string literals and trailing comments open and close
// nothing: the declaration ends where its own brackets close.
func TestADeclarationEndsWhereItsOwnBracketsClose(t *testing.T) {
	for _, tt := range []struct {
		line  string
		depth int
	}{
		{`def split(text, sep="(", end=')'):`, 0},
		{`def split(text, sep="(",`, 1},
		{`def f(pattern=r"\[(.*)\]",`, 1},
		{`def f(s='x (y', t=2):`, 0},
		{"	count int, // the tokens (all of them", 0},
		{"func f(a string, # a note (open", 1},
		{"fn longest<'a>(x: &'a str, y: &'a str) -> &'a str {", 0},
		{"fn f<'a, 'b>(x: &'a [u8],", 1},
		{"const re = `(`; f(", 1},
		{`printf("%s\"(", x)`, 0},
	} {
		assert.Equal(t, tt.depth, bracketDepth(tt.line), "%s", tt.line)
	}

	count := Counter(tokens.Default().Count)
	src := "def split(text, sep=\"(\",\n          strip=True):\n    \"\"\"Splits text at every sep.\"\"\"\n" + strings.Repeat("    parts = [p.strip() if strip else p for p in text.split(sep)]\n", 8) + "    return parts\n"
	d := Definition{Count: count, Name: "split", Signature: `def split(text, sep="(", strip=True):`}
	assert.Equal(t, "def split(text, sep=\"(\", strip=True):\nSplits text at every sep.", defSummary(t, d, src, Summary, 60))
}

// A later part's summary is where it starts and then what each of its
// comments says the code after it does, in order: an outline of the part,
// not its first lines cut short.
func TestALaterPartsSummaryOutlinesItsComments(t *testing.T) {
	d := Definition{Name: "chunkWriter.writeHeader", Continued: true}
	text := "\tswitch bdy := w.req.Body.(type) {\n\tcase *expectContinueReader:\n\t\t// We only get here if we have already fully consumed the request body.\n\tcase *body:\n\t\t// TODO: tidy this.\n\t\tbdy.mu.Lock()\n\t\t// Body was closed in handler with non-EOF error\n\t\tw.closeAfterReply = true\n\t}\n"
	assert.Equal(t, "switch bdy := w.req.Body.(type) {\nWe only get here if we have already fully consumed the request body. Body was closed in handler with non-EOF error.",
		defSummary(t, d, text, Summary, 40))
	// A comment ending on "…" ends there: no full stop after it.
	trailing := "\tswitch bdy := w.req.Body.(type) {\n\t// Read the rest of the body and then…\n\tcase *body:\n\t\t// Close it when the handler is done\n\t\tbdy.Close()\n\t}\n" + strings.Repeat("\tw.written++\n", 10)
	assert.Equal(t, "switch bdy := w.req.Body.(type) {\nRead the rest of the body and then… Close it when the handler is done.", defSummary(t, d, trailing, Summary, 30))
	// Without comments, its first lines of code, as before.
	bare := "\tn := len(p)\n\tcopy(buf, p)\n" + strings.Repeat("\tw.written += int64(n)\n", 20) + "\treturn n, nil\n"
	got := defSummary(t, d, bare, Summary, 12)
	assert.True(t, strings.HasPrefix(got, "n := len(p)\n") && strings.Contains(got, "copy(buf, p)"), got)
}

// A definition with no doc comment: its declaration and the outline of
// its comments, not its body's first lines.
func TestADefinitionWithoutADocCommentIsSummarisedByItsComments(t *testing.T) {
	d := Definition{Name: "Server.setupHTTP2_ServeTLS", Signature: "func (s *Server) setupHTTP2_ServeTLS() error"}
	text := "func (s *Server) setupHTTP2_ServeTLS() error {\n\ts.nextProtoOnce.Do(s.onceSetNextProtoDefaults)\n\t// Enable HTTP/2 unless the server set its own TLSNextProto map.\n\tif s.TLSNextProto == nil {\n\t\treturn s.nextProtoErr\n\t}\n\t// The caller's TLS config wins over the defaults\n\treturn nil\n}\n"
	assert.Equal(t, "func (s *Server) setupHTTP2_ServeTLS() error\nEnable HTTP/2 unless the server set its own TLSNextProto map. The caller's TLS config wins over the defaults.",
		defSummary(t, d, text, Summary, 36))
	// With a doc comment, the doc comment's sentences, as before.
	documented := "// setupHTTP2_ServeTLS configures HTTP/2 for ServeTLS.\n" + text
	assert.Equal(t, "func (s *Server) setupHTTP2_ServeTLS() error\nsetupHTTP2_ServeTLS configures HTTP/2 for ServeTLS.", defSummary(t, d, documented, Summary, 36))
}

// A later part of a long definition starts inside its body: its essence
// is what its first comment says the code does, else its first line of
// code that names something — never "var (" or "} else {".
func TestALaterPartsEssenceSaysWhatItsCodeDoes(t *testing.T) {
	d := Definition{Name: "Client.do", Continued: true}
	for _, c := range []struct {
		name, text, want string
		limit            int
	}{
		{"a comment says what the code after it does", "\t\tif err != nil {\n\t\t\treturn nil, err\n\t\t}\n\n\t\t// Copy the initial request's headers, the safe ones. Then the cookies.\n\t\tfor k, vv := range ireqhdr {\n",
			"Copy the initial request's headers, the safe ones.", 20},
		{"brackets and a keyword say nothing", "\tvar (\n\t\tdeadline = c.deadline()\n\t)\n\t} else {\n\t\tc.curReq.Store(w)\n",
			"deadline = c.deadline()", 20},
		{"past a note and a bare link", "\t\t// TODO(bradfitz): remove this in 3.0.0, see #2811\n\t\tx := 1\n\t\t// https://github.com/psf/requests/issues/1084\n\t\ty := 2\n\t\t// Rewind the body so that it can be sent again.\n\t\tz := 3\n",
			"Rewind the body so that it can be sent again.", 20},
		{"\"Note that\" describes; \"NOTE(x):\" is a note", "\t\t// NOTE(bradfitz): keep this in sync.\n\t\tx := 1\n\t\t// Note that the body may be nil here.\n\t\ty := 2\n",
			"Note that the body may be nil here.", 20},
		{"a note alone says less than the code", "\t// XXX not implemented yet\n\tvar (\n\t\tretries = 2\n\t)\n",
			"retries = 2", 20},
		{"Sphinx's #: marker taken off", "        #: Trust environment settings for proxy configuration, default\n        #: authentication and similar.\n        self.trust_env = True\n",
			"Trust environment settings for proxy configuration, default authentication and similar.", 20},
		{"past the docstring the part opens in", "        :param request:\n            The PreparedRequest being sent over the connection.\n        :type request:\n            :class:`~requests.models.PreparedRequest`\n        \"\"\"\n        host_params = _urllib3_request_context(request, verify, cert)\n        return host_params\n",
			"host_params = _urllib3_request_context(request, verify, cert)", 30},
		{"a docstring the part opens is no reason to skip its code", "        host = urlparse(url).hostname\n        def inner():\n            \"\"\"Inner does a thing.\n",
			"host = urlparse(url).hostname", 30},
		{"not a sentence ending on a comma", "\t\t\t// Respond as per RFC 7230 Section 3.3.1 which says,\n\t\t\t//      A server that receives a request message with a\n\t\t\t//      transfer coding it does not understand SHOULD\n\t\t\t//      respond with 501 (Unimplemented).\n\t\t\tcode := StatusNotImplemented\n",
			"Respond as per RFC 7230 Section 3.3.1 which says…", 20},
		{"a parameter list says what it lists", "        :param method: method for the new :class:`Request` object.\n        :param url: URL for the new :class:`Request` object.\n        :param params: (optional) Dictionary or bytes to be sent in the query\n            string for the :class:`Request`.\n        :param dict data: (optional) the body.\n",
			"Parameters: method, url, params, data", 20},
		{"the end of a literal says nothing", "\t\t\t4\"},\n\t\t},\n\t}\n\tfor _, c := range cases {\n",
			"for _, c := range cases {", 20},
		{"closing brackets, else and default say nothing", "\t}\n\t} else {\n\t\tdefault:\n\t\treqs = append(reqs, req)\n",
			"reqs = append(reqs, req)", 20},
	} {
		assert.Equal(t, c.want, defSummary(t, d, c.text, Essence, c.limit), c.name)
	}
	// The first part's essence is still the doc comment's first sentence,
	// named: a part's comment is about its own code.
	first := Definition{Name: "Client.do", Signature: "func (c *Client) do(req *Request) (retres *Response, reterr error)"}
	assert.Equal(t, "do: Sends the request.", defSummary(t, first, "// Sends the request.\nfunc (c *Client) do(req *Request) (retres *Response, reterr error) {\n\tif testHook != nil {\n", Essence, 20))
}
