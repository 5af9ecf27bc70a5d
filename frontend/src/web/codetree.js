// Reads source code into a flat syntax tree with web-tree-sitter, for the
// web edition's engine (backend/ingest/code/treesitter_js.go): the desktop
// app and the CLI parse with the same grammars compiled in, and the engine
// reads both kinds of tree with the same extractors. Plain JavaScript, so
// that Node runs it as it is (the engine's tests compare its trees with the
// compiled-in grammars': backend/ingest/code/webtree_test.go).
//
// A tree is sent as one Int32Array, RECORD numbers a node in source order
// (a node before its children): its type (an index into types), its field
// in its parent (an index into fields, -1 for none), its start and end in
// UTF-16 code units of the source (as JavaScript counts a string's length),
// and its depth × 8 + flags (1 named, 2 an error, 4 missing).
import { Language, Parser } from 'web-tree-sitter';

/** Numbers a node takes in records. */
export const RECORD = 5;

/** The grammar file of each language the engine names (code.Lang). */
export const GRAMMARS = {
  python: 'tree-sitter-python.wasm',
  javascript: 'tree-sitter-javascript.wasm',
  typescript: 'tree-sitter-typescript.wasm',
  tsx: 'tree-sitter-tsx.wasm',
  rust: 'tree-sitter-rust.wasm',
  java: 'tree-sitter-java.wasm',
  c: 'tree-sitter-c.wasm',
  cpp: 'tree-sitter-cpp.wasm',
};

/** How a person names each of those languages (the page says which grammar it fetches). */
export const LANGUAGE_NAMES = {
  python: 'Python', javascript: 'JavaScript', typescript: 'TypeScript', tsx: 'TSX', rust: 'Rust', java: 'Java', c: 'C', cpp: 'C++',
};

/** @type {Promise<void> | null} */
let ready = null;
/** @type {Map<string, Promise<Language>>} */
const languages = new Map();
/** @type {Map<string, Parser>} */
const parsers = new Map();
/** Where the grammars are: a URL (the page) or a folder (Node). */
let grammarBase = '';
/** @type {((file: string) => string) | undefined} */
let locateRuntime;
/** @type {((lang: string, phase: 'start' | 'done' | 'failed') => void) | undefined} */
let onFetch;

/**
 * Says where the grammar files are (base: a URL or a folder ending in "/")
 * and, in the page, where web-tree-sitter's own tree-sitter.wasm is.
 * fetched is told when a language's grammar starts to load and when it
 * has (or has failed), for the page to say why a first file of a language
 * takes a moment.
 * @param {string} base
 * @param {(file: string) => string} [runtime]
 * @param {(lang: string, phase: 'start' | 'done' | 'failed') => void} [fetched]
 */
export function configure(base, runtime, fetched) {
  grammarBase = base;
  locateRuntime = runtime;
  onFetch = fetched;
}

/**
 * The parser of lang, its grammar loaded on first need.
 * @param {string} lang
 * @returns {Promise<Parser>}
 */
async function parserFor(lang) {
  const file = /** @type {Record<string, string>} */ (GRAMMARS)[lang];
  if (!file) throw new Error(`no ${lang} grammar in the web edition`);
  ready ??= Parser.init(locateRuntime ? { locateFile: locateRuntime } : undefined);
  await ready;
  let language = languages.get(lang);
  if (!language) {
    onFetch?.(lang, 'start');
    language = loadGrammar(grammarBase + file);
    languages.set(lang, language);
    language.then(
      () => onFetch?.(lang, 'done'),
      () => {
        languages.delete(lang); // the next file tries again
        onFetch?.(lang, 'failed');
      },
    );
  }
  const loaded = await language;
  let parser = parsers.get(lang);
  if (!parser) {
    parser = new Parser();
    parser.setLanguage(loaded);
    parsers.set(lang, parser);
  }
  return parser;
}

/**
 * @param {string} where
 * @returns {Promise<Language>}
 */
async function loadGrammar(where) {
  if (/^[a-z]+:/.test(where)) {
    const res = await fetch(where);
    if (!res.ok) throw new Error(`could not load its grammar (${where}: HTTP ${res.status})`);
    return Language.load(new Uint8Array(await res.arrayBuffer()));
  }
  return Language.load(where); // Node reads a file
}

/**
 * Parses source as lang and flattens its tree.
 * @param {string} lang
 * @param {string} source
 * @returns {Promise<{types: string[], fields: string[], records: Int32Array, units: number}>}
 */
export async function parseFlat(lang, source) {
  const parser = await parserFor(lang);
  const tree = parser.parse(source);
  if (!tree) throw new Error(`the ${lang} parser gave up`);
  try {
    /** @type {string[]} */
    const types = [];
    /** @type {Map<string, number>} */
    const typeAt = new Map();
    /** @type {string[]} */
    const fields = [];
    /** @type {Map<string, number>} */
    const fieldAt = new Map();
    let records = new Int32Array(RECORD * 1024);
    let n = 0;
    const cursor = tree.walk();
    let depth = 0;
    for (;;) {
      if ((n + 1) * RECORD > records.length) {
        const more = new Int32Array(records.length * 2);
        more.set(records);
        records = more;
      }
      const type = cursor.nodeType;
      let t = typeAt.get(type);
      if (t === undefined) {
        t = types.length;
        types.push(type);
        typeAt.set(type, t);
      }
      const field = cursor.currentFieldName;
      let f = -1;
      if (field) {
        f = fieldAt.get(field) ?? -1;
        if (f < 0) {
          f = fields.length;
          fields.push(field);
          fieldAt.set(field, f);
        }
      }
      const flags = (cursor.nodeIsNamed ? 1 : 0) | (type === 'ERROR' ? 2 : 0) | (cursor.nodeIsMissing ? 4 : 0);
      const at = n * RECORD;
      records[at] = t;
      records[at + 1] = f;
      records[at + 2] = cursor.startIndex;
      records[at + 3] = cursor.endIndex;
      records[at + 4] = depth * 8 + flags;
      n++;
      if (cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (depth === 0 || !cursor.gotoParent()) {
          cursor.delete();
          return { types, fields, records: records.subarray(0, n * RECORD), units: source.length };
        }
        depth--;
      }
    }
  } finally {
    tree.delete();
  }
}
