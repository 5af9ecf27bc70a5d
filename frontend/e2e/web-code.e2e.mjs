// The web edition reading source code, in Debian's Chromium: the engine's
// worker answers loomParseCode (what backend/ingest/code's treesitter_js.go
// calls in WebAssembly) through web-tree-sitter, loading a language's
// grammar from build/web/grammars only when the first file of it arrives;
// then the page: the code samples the desktop app's tests read
// (backend/ingest/code/testdata) are picked in the file input and become
// definitions (none read as text), and a question loads the methods that
// answer it.
//
//   LOOM_E2E_URL   the web edition (required; scripts/e2e-web.sh serves build/web)
//   LOOM_E2E_OUT   screenshots (default ../../build/bin/e2e-web)
import { chromium } from 'playwright-core';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checks } from './checks.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const url = process.env.LOOM_E2E_URL;
if (!url) {
  console.error('web-code: set LOOM_E2E_URL to the web edition');
  process.exit(2);
}
const out = resolve(process.env.LOOM_E2E_OUT ?? join(here, '../../build/bin/e2e-web'));
const samples = join(here, '../../backend/ingest/code/testdata');
mkdirSync(out, { recursive: true });

const { check, fail, done } = checks('web-code');

const browser = await chromium.launch({
  executablePath: process.env.LOOM_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const errors = [];
try {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  const engineWorker = page.waitForEvent('worker', { predicate: (w) => /\/worker-[^/]*\.js/.test(w.url()), timeout: 60_000 });
  await page.goto(url);
  const worker = await engineWorker;
  await page.waitForSelector('[data-testid="drop-zone"]', { timeout: 90_000 });
  await page.waitForSelector('[data-testid="boot-overlay"]', { state: 'detached', timeout: 90_000 });
  const grammarsFetched = () =>
    worker.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => e.name)
        .filter((n) => n.includes('/grammars/'))
        .map((n) => new URL(n).pathname.split('/').pop()),
    );

  check('the worker offers loomParseCode', await worker.evaluate(() => typeof globalThis.loomParseCode === 'function'));
  check('no grammar is fetched before code arrives', (await grammarsFetched()).length === 0, (await grammarsFetched()).join(','));

  // The worker's parser, called as the engine calls it.
  const py = readFileSync(join(samples, 'sample.py'), 'utf8');
  const tree = await worker.evaluate(async (src) => {
    const t = await globalThis.loomParseCode('python', src);
    return { types: t.types, n: t.records.length / 5, units: t.units, first: Array.from(t.records.subarray(0, 5)) };
  }, py);
  check('loomParseCode gives Python a tree', tree.n > 100 && tree.types.includes('function_definition') && tree.units === py.length, JSON.stringify({ n: tree.n, units: tree.units }));
  check('the tree starts with its module, over the whole file', tree.types[tree.first[0]] === 'module' && tree.first[2] === 0 && tree.first[4] === 1, JSON.stringify(tree.first));
  const afterPython = await grammarsFetched();
  const runtime = await worker.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname)
      .filter((p) => /\/assets\/tree-sitter-[\w-]+\.wasm$/.test(p)),
  );
  check(
    'only the Python grammar was fetched, and web-tree-sitter\u2019s runtime once, from the page\u2019s own assets',
    afterPython.length === 1 && afterPython[0] === 'tree-sitter-python.wasm' && runtime.length === 1,
    `${afterPython.join(',')} · ${runtime.join(',')}`,
  );
  const missing = await worker.evaluate(async () => {
    try {
      await globalThis.loomParseCode('cobol', 'IDENTIFICATION DIVISION.');
      return '';
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  });
  check('a language without a grammar is refused with a reason', missing.includes('no cobol grammar'), missing);

  // The page: every sample becomes definitions.
  const files = ['sample.py', 'sample.ts', 'sample.tsx', 'sample.js', 'sample.rs', 'Sample.java', 'sample.c', 'sample.cpp'].map((f) => join(samples, f));
  // The Rust grammar is held back until the panel has said it is being
  // fetched (for the first Rust file), then let through.
  /** @type {() => void} */
  let releaseRust = () => {};
  const rustHeld = new Promise((held) => {
    void context.route('**/grammars/tree-sitter-rust.wasm', async (route) => {
      held(undefined);
      await new Promise((go) => (releaseRust = () => go(undefined)));
      await route.continue();
    });
  });
  await page.setInputFiles('[data-testid="file-input"]', files);
  await rustHeld;
  const notice = await page
    .waitForFunction(() => document.querySelector('[data-testid="ingest-grammar"]')?.textContent ?? '', null, { timeout: 60_000 })
    .then((h) => h.jsonValue())
    .catch(() => '');
  await page.screenshot({ path: join(out, 'web-code-grammar.png') });
  releaseRust();
  check('while the Rust grammar is fetched, the panel says so', /Fetching the Rust grammar/.test(String(notice)), String(notice));
  await page.waitForSelector('[data-testid="ingest-summary"]', { timeout: 120_000 });
  await page.waitForSelector('[data-testid="ingest-panel"][data-ingesting="false"]', { timeout: 120_000 });
  const states = await page.locator('[data-testid="ingest-file"]').evaluateAll((els) => els.map((el) => ({ state: el.dataset.state, text: el.textContent ?? '' })));
  check(`all ${files.length} files ingested`, states.length === files.length && states.every((s) => s.state === 'done'), JSON.stringify(states));
  const asText = states.filter((s) => /read as text|no \w+ parser/i.test(s.text));
  check('none was read as text', asText.length === 0, JSON.stringify(asText));
  const fetched = await grammarsFetched();
  check('each language fetched its grammar once', ['python', 'typescript', 'tsx', 'javascript', 'rust', 'java', 'c', 'cpp'].every((l) => fetched.filter((f) => f === `tree-sitter-${l}.wasm`).length === 1), fetched.join(','));
  const stats = (await page.textContent('[data-testid="library-stats"]')) ?? '';
  const sections = Number(/([\d,]+) sections/.exec(stats)?.[1]?.replace(/,/g, '') ?? 0);
  check('the files became definitions (a section each, not a few paragraphs)', sections >= 80, stats);

  await page.fill('[data-testid="query-input"]', 'How does the parser read the header of the ledger?');
  await page.click('[data-testid="query-submit"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="manifest"]')?.textContent?.includes('[Context loaded:'), null, { timeout: 30_000 });
  const rows = await page.locator('[data-testid="candidate-row"]').allTextContents();
  const top = rows.slice(0, 10).join(' | ');
  check('a question ranks the Python method that answers it', /sample\.py › method Parser\.read_header/.test(top), top.slice(0, 400));
  await page.screenshot({ path: join(out, 'web-code.png') });
  check('no page errors', errors.length === 0, errors.join('; '));
} catch (e) {
  fail(e instanceof Error ? e.stack : e);
} finally {
  await browser.close();
}
done();
