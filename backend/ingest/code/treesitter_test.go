//go:build cgo && !js

package code

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

// TestTreeSitterSamples checks every definition of each sample file.
func TestTreeSitterSamples(t *testing.T) {
	for _, c := range []struct {
		file    string
		lang    Lang
		pkg     string
		imports string
		defs    []wantDef
	}{
		{"sample.py", Python, "", "os@6 osp=os.path@7 abc@8 dataclasses@9 typing@10 .base@12 .errors@13", []wantDef{
			{"const", "MAX_ENTRIES", 15, 15, "MAX_ENTRIES = 10_000", "", true, "", nil, nil, nil},
			{"const", "DEFAULT_CURRENCY", 16, 16, "DEFAULT_CURRENCY: str = \"EUR\"", "", true, "", nil, nil, nil},
			{"class", "Entry", 21, 30, "class Entry:", "", true, "\"\"\"One line of the ledger.\"\"\"", []string{"dataclass", "Optional"}, nil, nil},
			{"method", "Entry.signed", 29, 30, "def signed(self) -> float:", "Entry", true, "", nil, nil, nil},
			{"class", "Parser", 33, 62, "class Parser(Base, metaclass=ABCMeta):", "", true, "\"\"\"Reads entries from a file.", []string{"Base", "ABCMeta"}, []string{"Base"}, []string{"__init__", "read_header", "parse", "_check"}},
			{"method", "Parser.__init__", 39, 41, "def __init__(self, path: str, strict: bool = False):", "Parser", true, "", nil, nil, nil},
			{"method", "Parser.read_header", 43, 45, "def read_header(self, lines: list) -> dict:", "Parser", true, "\"\"\"Parse the header block.\"\"\"", []string{"abstractmethod"}, nil, nil},
			{"method", "Parser.parse", 47, 58, "def parse(self, data: bytes) -> Iterator[Entry]:", "Parser", true, "", []string{"Iterator", "Entry", "decode()", "read_header()", "splitlines()", "strip()", "_make_entry()"}, nil, nil},
			{"method", "Parser._check", 60, 62, "def _check(self):", "Parser", false, "", []string{"osp.exists()", "LedgerError()"}, nil, nil},
			{"func", "_make_entry", 65, 68, "def _make_entry(line: str, header: dict) -> Entry:", "", false, "", []string{"Entry()", "split()"}, nil, nil},
			{"func", "load", 71, 76, "async def load(path: str, *, limit: int = MAX_ENTRIES) -> list[Entry]:", "", true, "\"\"\"Load at most limit entries from path.\"\"\"", []string{"MAX_ENTRIES", "Entry", "os.fspath()", "read()", "Parser()", "parse()"}, nil, nil},
			{"func", "total", 79, 80, "def total(entries):", "", true, "", []string{"signed()"}, nil, nil},
		}},
		{"sample.ts", TypeScript, "", "path=node:path@4 fs=fs@5 ./model@6 ./options@7 ./rank@8", []wantDef{
			{"const", "MAX_DEPTH", 10, 10, "export const MAX_DEPTH = 8", "", true, "", nil, nil, nil},
			{"interface", "Closer", 13, 16, "export interface Closer", "", true, "/** A store that can be closed. */", nil, nil, []string{"close"}},
			{"interface", "Reader", 18, 25, "export interface Reader extends Closer", "", true, "/**", []string{"Closer", "Node"}, []string{"Closer"}, []string{"read", "list"}},
			{"type", "NodeId", 27, 27, "export type NodeId = string | number", "", true, "", nil, nil, nil},
			{"enum", "Color", 29, 32, "export enum Color", "", true, "", nil, nil, nil},
			{"class", "Store", 34, 51, "export abstract class Store implements Reader", "", true, "// Base class for stores.", []string{"Reader", "Node"}, []string{"Reader"}, []string{"load", "read", "list", "size", "close"}},
			{"method", "Store.read", 38, 40, "read(id: string): Node | undefined", "Store", true, "", []string{"Node", "get()", "load()"}, nil, nil},
			{"method", "Store.list", 42, 44, "list(prefix?: string): Node[]", "Store", true, "", []string{"Node", "values()", "filter()", "startsWith()"}, nil, nil},
			{"method", "Store.size", 46, 48, "get size(): number", "Store", true, "", nil, nil, nil},
			{"method", "Store.close", 50, 50, "async close(): Promise<void>", "Store", true, "", nil, nil, nil},
			{"class", "FileStore", 53, 73, "export class FileStore extends Store", "", true, "/** Stores nodes in a folder. */", []string{"Store", "Options"}, []string{"Store"}, nil},
			{"method", "FileStore.constructor", 58, 62, "constructor(root: string, opts: Options)", "FileStore", true, "", []string{"Options"}, nil, nil},
			{"method", "FileStore.load", 64, 68, "protected load(id: string): Node | undefined", "FileStore", true, "", []string{"Node", "path.join()", "readFileSync()", "parseNode()"}, nil, nil},
			{"method", "FileStore.edgesOf", 70, 72, "private static edgesOf(n: Node): Edge[]", "FileStore", false, "", []string{"Node", "Edge", "map()"}, nil, nil},
			{"func", "parseNode", 75, 82, "export function parseNode(text: string): Node", "", true, "", []string{"Node", "parse()"}, nil, nil},
			{"func", "walk", 84, 87, "export const walk = async (store: Reader, id: NodeId, depth = MAX_DEPTH): Promise<Node[]> =>", "", true, "", []string{"Reader", "NodeId", "MAX_DEPTH", "Node", "read()"}, nil, nil},
			{"func", "helper", 89, 91, "const helper = function (x: number)", "", false, "", nil, nil, nil},
			{"func", "open", 93, 95, "export default function open(dir: string): FileStore", "", true, "", []string{"FileStore()"}, nil, nil},
		}},
		{"sample.js", JavaScript, "", "fs=fs@3 path@4 chalk=chalk@5 ./shared.js@6", []wantDef{
			{"const", "DEFAULT_OPTIONS", 8, 8, "const DEFAULT_OPTIONS = { verbose: false }", "", false, "", nil, nil, nil},
			{"func", "readJSON", 11, 18, "function readJSON(file)", "", true, "/**", []string{"fs.readFileSync()", "join()", "parse()"}, nil, nil},
			{"func", "lines", 20, 24, "async function* lines(stream)", "", false, "", []string{"toString()", "split()"}, nil, nil},
			{"class", "Importer", 26, 49, "class Importer extends EventEmitter", "", true, "", []string{"EventEmitter"}, []string{"EventEmitter"}, nil},
			{"method", "Importer.constructor", 27, 30, "constructor(opts = DEFAULT_OPTIONS)", "Importer", true, "", []string{"DEFAULT_OPTIONS"}, nil, nil},
			{"method", "Importer.run", 32, 40, "async run(files)", "Importer", true, "// run imports every file.", []string{"readJSON()", "emit()", "report()"}, nil, nil},
			{"method", "Importer.create", 42, 44, "static create()", "Importer", true, "", []string{"Importer()"}, nil, nil},
			{"method", "Importer.#secret", 46, 48, "#secret()", "Importer", false, "", []string{"chalk.red()"}, nil, nil},
			{"func", "report", 51, 54, "const report = (n) =>", "", false, "", []string{"log()", "chalk.green()"}, nil, nil},
			{"func", "version", 57, 59, "exports.version = function version()", "", true, "", nil, nil, nil},
		}},
		{"sample.tsx", TSX, "", "React=react@1 ./ui/button@2 api=../api@3", []wantDef{
			{"interface", "ListProps", 5, 8, "export interface ListProps", "", true, "", nil, nil, nil},
			{"func", "List", 10, 23, "export function List({ items, onPick }: ListProps)", "", true, "/** Shows a list of items and remembers the last one picked. */", []string{"ListProps", "useState()", "map()", "Button()", "Footer()"}, nil, nil},
			{"func", "Footer", 25, 25, "const Footer = ({ text }: { text: string }) =>", "", false, "", nil, nil, nil},
			{"class", "Panel", 27, 35, "export default class Panel extends React.Component<ListProps>", "", true, "", []string{"React.Component", "ListProps"}, []string{"React.Component<ListProps>"}, nil},
			{"method", "Panel.render", 28, 30, "render()", "Panel", true, "", []string{"List()"}, nil, nil},
			{"method", "Panel.refresh", 32, 34, "async refresh(): Promise<void>", "Panel", true, "", []string{"api.reload()"}, nil, nil},
		}},
		{"sample.rs", Rust, "", "std::collections::HashMap@3 std::fmt@4 std::fmt::Display@4 QueryError=crate::error::Error@5 super::*@99", []wantDef{
			{"const", "MAX_TOKEN", 7, 8, "pub const MAX_TOKEN: usize = 256", "", true, "/// The longest token accepted.", nil, nil, nil},
			{"var", "COUNTER", 9, 9, "static mut COUNTER: u32 = 0", "", false, "", nil, nil, nil},
			{"struct", "Token", 11, 17, "pub struct Token", "", true, "/// One lexical token.", []string{"Kind"}, []string{"Display"}, nil},
			{"enum", "Kind", 19, 25, "pub enum Kind", "", true, "/// What a token is.", nil, nil, nil},
			{"trait", "Source", 27, 34, "pub trait Source: Iterator<Item = Token>", "", true, "/// Something that yields tokens.", []string{"Token"}, []string{"Iterator<Item = Token>"}, []string{"peek", "position"}},
			{"method", "Source.position", 31, 33, "fn position(&self) -> usize", "Source", true, "", nil, nil, nil},
			{"type", "Table", 36, 36, "pub type Table = HashMap<String, Kind>", "", true, "", []string{"HashMap", "Kind"}, nil, nil},
			{"struct", "Lexer", 38, 41, "pub struct Lexer<'a>", "", true, "", nil, []string{"Iterator"}, nil},
			{"method", "Lexer.new", 44, 47, "pub fn new(input: &'a str) -> Self", "Lexer", true, "/// Makes a lexer over input.", []string{"Lexer"}, nil, nil},
			{"method", "Lexer.bump", 49, 53, "fn bump(&mut self) -> Option<char>", "Lexer", false, "", []string{"chars()", "next()", "len_utf8()"}, nil, nil},
			{"method", "Lexer.next", 59, 63, "fn next(&mut self) -> Option<Token>", "Lexer", true, "", []string{"Token", "bump()", "classify()", "to_string()"}, nil, nil},
			{"method", "Token.fmt", 67, 69, "fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result", "Token", true, "", []string{"fmt.Formatter", "fmt.Result"}, nil, nil},
			{"func", "classify", 72, 80, "fn classify(c: char) -> Kind", "", false, "", []string{"Kind", "is_alphabetic()", "is_numeric()", "Symbol()"}, nil, nil},
			{"func", "tokenize", 82, 89, "pub fn tokenize(input: &str) -> Result<Vec<Token>, QueryError>", "", true, "/// Tokenizes all of input.", []string{"Token", "QueryError", "Lexer", "new()", "collect()", "len()", "MAX_TOKEN", "QueryError.TooLong()"}, nil, nil},
			{"macro", "token", 91, 95, "macro_rules! token", "", false, "", []string{"Token"}, nil, nil},
			{"func", "words", 101, 104, "fn words()", "", false, "", []string{"tokenize"}, nil, nil},
		}},
		{"Sample.java", Java, "org.loom.index", "java.io.IOException@6 java.util.List@7 java.util.ArrayList@8 java.util.Objects.requireNonNull@9 org.loom.model.*@10", []wantDef{
			{"interface", "Reader", 12, 20, "public interface Reader extends AutoCloseable", "", true, "/**", []string{"AutoCloseable", "Document", "IOException"}, []string{"AutoCloseable"}, []string{"next", "count"}},
			{"class", "Ranker", 22, 73, "public abstract class Ranker<T extends Document> extends Scorer implements Comparable<Ranker<T>>, Reader", "", true, "/** Ranks search results. */", []string{"Document", "Scorer", "Reader", "List", "ArrayList()"}, []string{"Scorer", "Comparable<Ranker<T>>", "Reader"}, []string{"score", "compareTo", "top", "clamp"}},
			{"const", "Ranker.MAX_RESULTS", 24, 24, "public static final int MAX_RESULTS = 100", "Ranker", true, "", nil, nil, nil},
			{"method", "Ranker.Ranker", 28, 33, "protected Ranker(double boost)", "Ranker", false, "/**", nil, nil, nil},
			{"method", "Ranker.compareTo", 38, 41, "public int compareTo(Ranker<T> other)", "Ranker", true, "", []string{"Ranker", "compare()"}, nil, nil},
			{"method", "Ranker.top", 43, 48, "public List<T> top(int n) throws IOException", "Ranker", true, "", []string{"List", "IOException", "requireNonNull()", "ArrayList()", "sort()", "compare()", "score()", "subList()", "min()", "MAX_RESULTS"}, nil, nil},
			{"method", "Ranker.clamp", 50, 52, "private static int clamp(int v)", "Ranker", false, "", []string{"max()"}, nil, nil},
			{"class", "Ranker.Hit", 54, 63, "public static class Hit", "Ranker", true, "/** One scored hit. */", []string{"Document"}, nil, nil},
			{"method", "Ranker.Hit.Hit", 59, 62, "Hit(Document doc, double score)", "Ranker.Hit", false, "", []string{"Document"}, nil, nil},
			{"enum", "Ranker.Mode", 65, 72, "enum Mode", "Ranker", false, "", nil, nil, nil},
			{"method", "Ranker.Mode.slow", 69, 71, "boolean slow()", "Ranker.Mode", false, "", nil, nil, nil},
			{"class", "Pair", 75, 79, "record Pair(String key, int value)", "", false, "", nil, nil, nil},
			{"method", "Pair.Pair", 76, 78, "Pair", "Pair", false, "", []string{"requireNonNull()"}, nil, nil},
		}},
		{"sample.c", C, "", "stdio.h@5 stdlib.h@6 ledger.h@7", []wantDef{
			{"macro", "MAX_LINE", 9, 9, "#define MAX_LINE 1024", "", true, "", nil, nil, nil},
			{"macro", "MIN", 10, 10, "#define MIN(a, b)", "", true, "", nil, nil, nil},
			{"struct", "entry", 12, 17, "struct entry", "", true, "/* One parsed entry. */", nil, nil, nil},
			{"struct", "ledger_t", 19, 22, "typedef struct { … } ledger_t", "", true, "", []string{"entry"}, nil, nil},
			{"enum", "status", 24, 24, "typedef enum { … } status", "", true, "", nil, nil, nil},
			{"type", "visit_fn", 26, 26, "typedef int (*visit_fn)(const struct entry *e, void *arg)", "", true, "", []string{"entry"}, nil, nil},
			{"var", "verbose", 28, 28, "static int verbose = 0", "", false, "", nil, nil, nil},
			{"var", "ledger_version", 29, 29, "const char *ledger_version = \"1.2\"", "", true, "", nil, nil, nil},
			{"func", "ledger_count", 31, 31, "int ledger_count(const ledger_t *l)", "", true, "", []string{"ledger_t"}, nil, nil},
			{"func", "parse_line", 33, 42, "static status parse_line(const char *s, struct entry *out)", "", false, "/*", []string{"status", "entry", "sscanf()"}, nil, nil},
			{"func", "ledger_read", 44, 61, "status ledger_read(FILE *f, ledger_t *l)", "", true, "// ledger_read reads every line of f.", []string{"status", "FILE", "ledger_t", "MAX_LINE", "fgets()", "MIN()", "entry", "malloc()", "parse_line()", "free()", "verbose", "log_entry()"}, nil, nil},
			{"func", "ledger_walk", 63, 69, "int ledger_walk(ledger_t *l, visit_fn visit, void *arg)", "", true, "", []string{"ledger_t", "visit_fn", "entry"}, nil, nil},
		}},
		{"sample.cpp", CPP, "", "memory@3 string@4 vector@5 math/vec.hpp@6", []wantDef{
			{"class", "Drawable", 11, 17, "class Drawable", "", true, "/// Something that can be drawn.", []string{"Canvas", "std.string"}, nil, []string{"draw", "name"}},
			{"struct", "Color", 19, 22, "struct Color", "", true, "", nil, nil, nil},
			{"method", "Color.gray", 21, 21, "static Color gray(float v)", "Color", true, "", []string{"Color"}, nil, nil},
			{"class", "Node", 24, 38, "class Node : public Drawable, protected Observable<Node>", "", true, "/**", []string{"Drawable", "Observable", "std.string", "Canvas", "std.unique_ptr", "std.vector"}, []string{"Drawable", "Observable<Node>"}, nil},
			{"method", "Node.name", 31, 31, "std::string name() const override", "Node", true, "", []string{"std.string"}, nil, nil},
			{"func", "clamp", 40, 43, "template <typename T> T clamp(T v, T lo, T hi)", "", true, "", []string{"std.max()", "std.min()"}, nil, nil},
			{"enum", "Blend", 45, 45, "enum class Blend", "", true, "", nil, nil, nil},
			{"type", "NodePtr", 47, 47, "using NodePtr = std::unique_ptr<Node>", "", true, "", []string{"Node", "std.unique_ptr"}, nil, nil},
			{"method", "Node.Node", 49, 49, "Node::Node(std::string name) : name_(std::move(name))", "Node", true, "", []string{"std.string", "std.move()"}, nil, nil},
			{"method", "Node.draw", 51, 59, "void Node::draw(Canvas &c) const", "Node", true, "// draw paints the node and then its children.", []string{"Node", "Canvas", "push()", "fill()", "Color", "gray()", "clamp()", "pop()"}, nil, nil},
			{"method", "Node.add", 61, 65, "void Node::add(std::unique_ptr<Node> child)", "Node", true, "", []string{"Node", "std.unique_ptr", "push_back()", "std.move()", "notify()", "layout()"}, nil, nil},
			{"var", "frames", 67, 67, "static int frames = 0", "", false, "", nil, nil, nil},
		}},
	} {
		t.Run(c.file, func(t *testing.T) {
			f := parseFile(t, c.file)
			if f.Lang != c.lang || f.Package != c.pkg || f.Partial || len(f.Problems) > 0 || f.Generated {
				t.Fatalf("file: Lang %q, Package %q, Partial %v, Problems %q, Generated %v", f.Lang, f.Package, f.Partial, f.Problems, f.Generated)
			}
			if got := fmtImports(f.Imports); got != c.imports {
				t.Errorf("imports = %s\nwant %s", got, c.imports)
			}
			checkDefs(t, f, c.defs)
		})
	}
}

// TestPythonSyntaxError: the definitions before and after a broken one are
// still read.
func TestPythonSyntaxError(t *testing.T) {
	src := `import os

def before(x):
    return os.path.join(x)

def broken(a, b:
    return a +

class After:
    """Still here."""

    def method(self):
        return before(os.sep)

LIMIT = 3
`
	f, err := Parse("broken.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !f.Partial || len(f.Problems) == 0 || len(f.Problems) > maxProblems || !strings.HasPrefix(f.Problems[0], "line ") {
		t.Fatalf("Partial = %v, Problems = %q", f.Partial, f.Problems)
	}
	var got []string
	for _, d := range f.Defs {
		got = append(got, fmt.Sprintf("%s %s %d-%d", d.Kind, d.Name, d.LineStart, d.LineEnd))
	}
	for _, want := range []string{"func before 3-4", "class After 9-13", "method After.method 12-13", "const LIMIT 15-15"} {
		if !slices.Contains(got, want) {
			t.Errorf("defs = %q, want %q among them", got, want)
		}
	}
	if m := f.Defs[slices.IndexFunc(f.Defs, func(d Def) bool { return d.Name == "After.method" })]; fmt.Sprint(fmtRefs(m.Refs)) != "[before() os.sep]" {
		t.Errorf("After.method refs = %q", fmtRefs(m.Refs))
	}
}

// TestPythonOverloadsAndConditionalDefinitions: a function's @overload
// stubs are part of its implementation (one definition, one name, lines
// from the first stub); stubs with no implementation stay definitions;
// definitions under else, elif, except and finally are read; a type
// variable is not a constant; a definition of the name before the stubs
// stays one.
func TestPythonOverloadsAndConditionalDefinitions(t *testing.T) {
	src := `import sys
from typing import TypeVar, overload

_KT = TypeVar("_KT")
LIMIT = 3

class Response:
    @overload
    def iter_content(self, size: int) -> bytes: ...
    @typing.overload
    def iter_content(self, size: None) -> str: ...
    def iter_content(self, size=None):
        return chunks(size)

    def close(self):
        pass

class Reader(Protocol):
    @overload
    def read(self) -> bytes: ...
    @overload
    def read(self, n: int) -> bytes: ...

if sys.version_info >= (3, 8):
    def cached(f):
        return f
elif sys.platform == "win32":
    def cached(f):
        return None
else:
    def legacy(f):
        return f

try:
    import socks
except ImportError:
    class SOCKSProxyManager:
        pass
finally:
    def cleanup():
        pass

def parse(x):
    return x

@overload
def parse(x: int) -> int: ...
def parse(x):
    return x
`
	f, err := Parse("models.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range f.Defs {
		got = append(got, fmt.Sprintf("%s %s %d-%d", d.Kind, d.Name, d.LineStart, d.LineEnd))
	}
	want := []string{
		"const LIMIT 5-5",
		"class Response 7-16",
		"method Response.iter_content 8-13",
		"method Response.close 15-16",
		"class Reader 18-22",
		"method Reader.read 19-20",
		"method Reader.read 21-22",
		"func cached 25-26",
		"func cached 28-29",
		"func legacy 31-32",
		"class SOCKSProxyManager 37-38",
		"func cleanup 40-41",
		"func parse 43-44",
		"func parse 46-49",
	}
	if !slices.Equal(got, want) {
		t.Errorf("defs =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if m := f.Defs[slices.IndexFunc(f.Defs, func(d Def) bool { return d.Name == "Response.iter_content" })]; fmt.Sprint(fmtRefs(m.Refs)) != "[chunks() overload]" {
		t.Errorf("Response.iter_content refs = %q", fmtRefs(m.Refs))
	}
}

// TestSignaturesLeaveOutTheirComments: a declaration's header is put on
// one line, where a comment inside it would swallow what follows it.
func TestSignaturesLeaveOutTheirComments(t *testing.T) {
	for _, c := range []struct{ path, src, want string }{
		{"jar.py", "class Jar:\n    def get(  # type: ignore[override]\n        self, name: str, default=None  # the value when missing\n    ) -> str:\n        return name\n",
			"def get( self, name: str, default=None ) -> str:"},
		{"a.go", "package a\n\nfunc Open(dir string, /* read only */ ro bool) error {\n\treturn nil\n}\n",
			"func Open(dir string, ro bool) error"},
		{"a.rs", "fn parse(s: &str, // the text\n    strict: bool) -> u8 {\n    0\n}\n", "fn parse(s: &str, strict: bool) -> u8"},
	} {
		f, err := Parse(c.path, []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(f.Defs, func(d Def) bool { return d.Kind != "file" && d.Kind != "class" })
		if i < 0 {
			t.Fatalf("%s: no definition in %v", c.path, f.Defs)
		}
		if got := f.Defs[i].Signature; got != c.want {
			t.Errorf("%s: signature %q, want %q", c.path, got, c.want)
		}
	}
}

// TestTreeSitterSyntaxErrors: every grammar reports the line of an error
// and keeps the definitions around it.
func TestTreeSitterSyntaxErrors(t *testing.T) {
	for _, c := range []struct {
		path, src string
		line      int
		defs      []string
	}{
		{"a.js", "function a() { return 1 }\nfunction b( { \nfunction c() {}\n", 2, []string{"a", "c"}},
		{"a.ts", "export function a(): number { return 1 }\nlet x = ;\nexport class C { m() {} }\n", 2, []string{"a", "C", "C.m"}},
		{"a.rs", "fn a() {}\nfn b( {}\npub struct S;\n", 2, []string{"a", "S"}},
		{"A.java", "class A {\n  void a() {}\n  void b( {}\n  void c() {}\n}\n", 3, []string{"A", "A.a"}},
		{"a.c", "int a(void) { return 1; }\nint b( { }\nint c(void) { return 2; }\n", 2, []string{"a"}},
	} {
		f, err := Parse(c.path, []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		if !f.Partial || len(f.Problems) == 0 {
			t.Errorf("%s: Partial = %v, Problems = %q", c.path, f.Partial, f.Problems)
			continue
		}
		if !slices.ContainsFunc(f.Problems, func(p string) bool { return strings.HasPrefix(p, fmt.Sprintf("line %d: ", c.line)) }) {
			t.Errorf("%s: Problems = %q, want one on line %d", c.path, f.Problems, c.line)
		}
		var names []string
		for _, d := range f.Defs {
			names = append(names, d.Name)
		}
		for _, want := range c.defs {
			if !slices.Contains(names, want) {
				t.Errorf("%s: defs = %q, want %s among them", c.path, names, want)
			}
		}
	}
}

func TestFileDoc(t *testing.T) {
	if f := parseFile(t, "sample.py"); !strings.HasPrefix(f.Doc, `"""Parsing of ledger files`) {
		t.Errorf("Python module doc = %q", f.Doc)
	}
	if f := parseFile(t, "sample.rs"); f.Doc != "//! Tokenizer for the query language." {
		t.Errorf("Rust crate doc = %q", f.Doc)
	}
}

func TestGeneratedMarker(t *testing.T) {
	for path, src := range map[string]string{
		"gen.py":   "# @generated by protoc\nimport os\n",
		"gen.ts":   "/* eslint-disable */\n// @generated\nexport const A = 1;\n",
		"gen.rs":   "// @generated by build.rs\nfn a() {}\n",
		"Gen.java": "// @generated\nclass Gen {}\n",
	} {
		f, err := Parse(path, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if !f.Generated {
			t.Errorf("%s: Generated = false", path)
		}
	}
}

func TestSupportedAll(t *testing.T) {
	if got := len(Supported()); got != 9 {
		t.Fatalf("Supported() = %v, want all 9 languages with cgo", Supported())
	}
	for _, l := range Supported() {
		if _, err := Parse("empty"+extOf(l), nil); errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: %v", l, err)
		}
	}
}

// extOf is an extension of the language.
func extOf(l Lang) string {
	for ext, el := range extensions {
		if el == l && ext != ".h" && ext != ".pyi" {
			return ext
		}
	}
	return ""
}

// TestOneLineMinifiedJS: a 5 MB minified bundle on one line parses (in
// linear time; the test does not time it).
func TestOneLineMinifiedJS(t *testing.T) {
	var b strings.Builder
	b.WriteString(`!function(e){var t={};function n(r){if(t[r])return t[r].exports;var o=t[r]={i:r,l:!1,exports:{}};return e[r].call(o.exports,o,o.exports,n),o.l=!0,o.exports}n(0)}([`)
	for i := 0; b.Len() < 5<<20; i++ {
		fmt.Fprintf(&b, `function(e,t,n){"use strict";var r=n(%d),o=function(a,b){return a.x%d(b)+r.y(a,[1,2,3],{k:b})};t.f%d=o;class C%d extends r.B{m(){return o(this,%d)}}},`, i%50, i%7, i, i, i)
	}
	b.WriteString(`function(e,t){}]);var top=function(a){return a};`)
	f, err := Parse("bundle.min.js", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Defs) != 1 || f.Defs[0].Name != "top" || f.Partial {
		t.Fatalf("defs = %d (first %+v), Partial %v; want just top", len(f.Defs), f.Defs[:min(1, len(f.Defs))], f.Partial)
	}
}

// TestPanicIsError: a failure deep in an extractor is an error naming the
// file, not a crash.
func TestPanicIsError(t *testing.T) {
	g := grammars[Python]
	saved := g.extract
	g.extract = func(*tsFile) { panic("boom") }
	defer func() { g.extract = saved }()
	f, err := Parse("crash.py", []byte("def f(): pass\n"))
	if f != nil || err == nil || !strings.Contains(err.Error(), "crash.py") || !strings.Contains(err.Error(), "boom") || errors.Is(err, ErrUnsupported) {
		t.Fatalf("Parse = %v, %v", f, err)
	}
}

// TestCPreprocessorChains: every branch of an #if/#elif/#else chain is
// read once.
func TestCPreprocessorChains(t *testing.T) {
	src := "#if A\n#define X 1\n#elif B\n#define Y 2\n#elif C\n#define Z 3\n#else\n#define W 4\n#endif\n" +
		"#ifdef __cplusplus\nextern \"C\" {\n#endif\nint f(void);\n#ifdef __cplusplus\n}\n#endif\n"
	f, err := Parse("chain.h", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range f.Defs {
		got = append(got, d.Kind+" "+d.Name)
	}
	if want := []string{"macro X", "macro Y", "macro Z", "macro W", "func f"}; !slices.Equal(got, want) {
		t.Errorf("defs = %q, want %q", got, want)
	}
}

// TestCopiedTreesAreTreeSittersOwn: the Go copy of a tree says what
// tree-sitter says of every node (type, named, lines, errors), on every
// sample and on broken code.
func TestCopiedTreesAreTreeSittersOwn(t *testing.T) {
	files := map[string]Lang{"sample.py": Python, "sample.ts": TypeScript, "sample.tsx": TSX, "sample.js": JavaScript,
		"sample.rs": Rust, "Sample.java": Java, "sample.c": C, "sample.cpp": CPP}
	broken := map[string]Lang{"broken.py": Python, "broken.ts": TypeScript, "broken.c": C}
	srcs := map[string][]byte{
		"broken.py": []byte("def f(x:\n    return (x +\nclass C:\n    def m(self): pass\n"),
		"broken.ts": []byte("export function f(a: number {\n  return a +;\n}\ninterface I { x: string\n"),
		"broken.c":  []byte("int main( {\n  return 0\n}\r\nstatic int g(void) { return 1; }\n"),
	}
	for name, lang := range files {
		src, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		srcs[name] = src
		broken[name] = lang
	}
	for name, lang := range broken {
		src := srcs[name]
		g := natives[lang]
		g.init()
		p := sitter.NewParser()
		p.SetLanguage(g.language)
		tree, err := p.ParseCtx(context.Background(), nil, src)
		if err != nil {
			t.Fatal(err)
		}
		root := tree.RootNode()
		copied := g.copyTree(root, src)
		var compare func(want *sitter.Node, field string, got *node, gotField string)
		nodes := 0
		compare = func(want *sitter.Node, field string, got *node, gotField string) {
			nodes++
			sp, ep := want.StartPoint(), want.EndPoint()
			if got.typ != want.Type() && !(want.IsError() && got.typ == "ERROR") || got.IsNamed() != want.IsNamed() ||
				got.IsError() != want.IsError() || got.IsMissing() != want.IsMissing() || got.HasError() != want.HasError() ||
				got.start != want.StartByte() || got.end != want.EndByte() || got.row != sp.Row || got.endRow != ep.Row ||
				(got.endCol == 0) != (ep.Column == 0) || field != gotField || int(want.ChildCount()) != len(got.kids) {
				t.Fatalf("%s: node %q at %d:%d: copied %+v (field %q), tree-sitter named %v error %v missing %v has-error %v rows %d–%d col %d field %q children %d",
					name, want.Type(), sp.Row+1, sp.Column, *got, gotField, want.IsNamed(), want.IsError(), want.IsMissing(), want.HasError(), sp.Row, ep.Row, ep.Column, field, want.ChildCount())
			}
			// the field names as a cursor reads them, as the extractors did
			// before the copy (Node.FieldNameForChild names some an error
			// node's)
			c := sitter.NewTreeCursor(want)
			defer c.Close()
			for i, ok := 0, c.GoToFirstChild(); ok; i, ok = i+1, c.GoToNextSibling() {
				compare(c.CurrentNode(), c.CurrentFieldName(), got.kids[i].n, got.kids[i].field)
			}
		}
		compare(root, "", copied, "")
		if nodes < 20 {
			t.Errorf("%s: only %d nodes", name, nodes)
		}
		tree.Close()
	}
}
