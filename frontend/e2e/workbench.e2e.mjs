// End-to-end test of the workbench page in Debian's Chromium, driven with
// playwright-core against a running engine: the desktop app's browser URL
// (`wails dev`, see scripts/e2e-desktop.sh) or the web edition.
//
//   LOOM_E2E_URL   the page (default http://localhost:34115)
//   LOOM_E2E_OUT   where screenshots go (default ../build/bin/e2e)
//   LOOM_E2E_DOCS  a folder of markdown files to ingest (default ../testdata/fixture/notes,
//                  plus the repository's README.md and BENCHMARKS.md: enough sections
//                  that a smaller budget visibly loads less)
//
// It starts from an empty library: takes the sample library it offers and
// asks a question about it; then ingests files through the file input,
// watches the progress and the document list, checks the graph has nodes,
// runs a query, reads the budget view and the manifest, moves the budget
// and sees the loaded set change, and copies the prompt. Prints "N passed,
// M failed" and exits non-zero on a failure.
import { chromium } from 'playwright-core';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const url = process.env.LOOM_E2E_URL ?? 'http://localhost:34115';
const out = resolve(process.env.LOOM_E2E_OUT ?? join(here, '../../build/bin/e2e'));
const docs = resolve(process.env.LOOM_E2E_DOCS ?? join(here, '../../testdata/fixture/notes'));
// The notes the engine embeds as its sample library (backend/sample).
const sampleNotes = readdirSync(join(here, '../../backend/sample/notes')).filter((f) => f.endsWith('.md'));
// …and its paper (a PDF) with the bibliography listing it: a document for
// the PDF and one for every entry of the .bib.
const samplePapers = join(here, '../../backend/sample/papers');
const sampleDocs =
  sampleNotes.length +
  readdirSync(samplePapers).filter((f) => f.endsWith('.pdf')).length +
  readdirSync(samplePapers)
    .filter((f) => f.endsWith('.bib'))
    .reduce((n, f) => n + (readFileSync(join(samplePapers, f), 'utf8').match(/^@\w+\{/gm) ?? []).length, 0);
mkdirSync(out, { recursive: true });

let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  if (ok) {
    passed++;
    console.log(`e2e: ok   ${name}`);
  } else {
    failed++;
    console.log(`e2e: FAIL ${name}${detail ? ` — ${detail}` : ''}`);
  }
}

const browser = await chromium.launch({
  executablePath: process.env.LOOM_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--enable-unsafe-swiftshader', '--use-angle=swiftshader'],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
const page = await context.newPage();
const errors = [];
page.on('pageerror', (e) => errors.push(String(e)));

try {
  await page.goto(url);
  await page.waitForSelector('[data-testid="drop-zone"]', { timeout: 60_000 });
  check('the page shows the drop zone', true);

  // The empty library offers a sample library: one click brings its notes,
  // its paper (read from the PDF: pdfium on the desktop, pdf.js in the web
  // edition) and its bibliography.
  const trySample = page.locator('[data-testid="try-sample"]');
  await trySample.waitFor({ timeout: 30_000 });
  await page.screenshot({ path: join(out, 'empty.png') });
  await trySample.click();
  await page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid="document-list"] [data-testid="document-item"]').length >= n,
    sampleDocs,
    { timeout: 60_000 },
  );
  const sampleCount = await page.locator('[data-testid="document-list"] [data-testid="document-item"]').count();
  check(
    `the sample library's ${sampleDocs} documents (notes, the paper, the bibliography's entries) arrive in the collection "sample"`,
    sampleCount === sampleDocs && (await page.locator('[data-testid="collection-item"][data-name="sample"]').count()) === 1,
    `${sampleCount} documents`,
  );
  check('the sample offer goes once the library has documents', (await trySample.count()) === 0);
  await page.fill('[data-testid="query-input"]', 'How is the loadable token budget calculated from the context window?');
  await page.click('[data-testid="query-submit"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="manifest"]')?.textContent?.includes('[Context loaded:'), null, {
    timeout: 30_000,
  });
  const sampleManifest = (await page.locator('.manifest-view').textContent()) ?? '';
  check('a question about the sample loads its note on context windows', /context-windows\.md/.test(sampleManifest), sampleManifest.slice(0, 300));
  await page.waitForSelector('[data-testid="graph-view"][data-settled="yes"]', { timeout: 60_000 });
  await page.screenshot({ path: join(out, 'sample.png') });

  // The sample's paper: a question about it is answered from its pages, and
  // the candidates cite it by page and section (docs/desktop.png).
  await page.fill('[aria-label="Filter documents"]', 'papers/');
  await page.fill('[data-testid="query-input"]', 'What is the stopping rule, and what is the relevance cut?');
  await page.click('[data-testid="query-submit"]');
  await page.waitForFunction(() => /budgeted-context\.pdf p\. 1 §3\.2/.test(document.querySelector('[data-testid="manifest-sources"]')?.textContent ?? ''), null, {
    timeout: 30_000,
  });
  const paperManifest = (await page.locator('[data-testid="manifest-sources"]').textContent()) ?? '';
  check('a question about the paper cites it by page and section', /budgeted-context\.pdf p\. 1 §3\.2/.test(paperManifest), paperManifest.slice(0, 400));
  await page.waitForSelector('[data-testid="graph-view"][data-settled="yes"]', { timeout: 60_000 });
  await page.screenshot({ path: join(out, 'papers.png') });
  await page.fill('[aria-label="Filter documents"]', '');

  // Ingest through the file input.
  const files = readdirSync(docs)
    .filter((f) => /\.(md|markdown|txt)$/.test(f))
    .map((f) => join(docs, f));
  if (!process.env.LOOM_E2E_DOCS) files.push(join(here, '../../README.md'), join(here, '../../BENCHMARKS.md'));
  await page.setInputFiles('[data-testid="file-input"]', files);
  const progress = page.locator('[data-testid="ingest-progress"]');
  await progress.waitFor({ timeout: 30_000 });
  check('ingest progress is shown', await progress.isVisible());
  const items = page.locator('[data-testid="document-list"] [data-testid="document-item"]');
  await page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid="document-list"] [data-testid="document-item"]').length >= n,
    sampleCount + files.length,
    { timeout: 60_000 },
  );
  check(`the document list shows the ${files.length} files`, (await items.count()) >= sampleCount + files.length, `${await items.count()} items`);

  // The graph has nodes.
  const graph = page.locator('[data-testid="graph-view"]');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="graph-view"]')?.getAttribute('data-nodes') ?? 0) > 0, null, {
    timeout: 30_000,
  });
  const nodes = Number(await graph.getAttribute('data-nodes'));
  check('the graph view draws nodes', nodes > 0, `data-nodes=${nodes}`);

  // A query.
  const budgetInput = page.locator('[data-testid="budget-input"]');
  if (await budgetInput.count()) await budgetInput.fill('2000');
  await page.fill('[data-testid="query-input"]', 'What are the ranking settings and their defaults?');
  await page.click('[data-testid="query-submit"]');
  const manifest = page.locator('[data-testid="manifest"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="manifest"]')?.textContent?.includes('[Context loaded:'), null, {
    timeout: 30_000,
  });
  const manifestText = (await manifest.textContent()) ?? '';
  check('the manifest is shown as the model sees it', manifestText.includes('[Context loaded:'), manifestText.slice(0, 120));

  const budget = page.locator('[data-testid="budget-view"]');
  const loadedCount = Number(await budget.getAttribute('data-loaded-count'));
  const windowSize = Number(await budget.getAttribute('data-window'));
  check('the budget view shows loaded nodes within the window', loadedCount > 0 && windowSize > 0, `loaded=${loadedCount} window=${windowSize}`);
  await page.screenshot({ path: join(out, 'query.png') });

  // Move the budget down: fewer tokens loaded.
  const loadedTokens = Number(await budget.getAttribute('data-loaded-tokens'));
  const slider = page.locator('[data-testid="budget-slider"]');
  await slider.evaluate((el) => {
    const input = /** @type {HTMLInputElement} */ (el);
    input.value = input.min;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await page
    .waitForFunction(
      (before) => Number(document.querySelector('[data-testid="budget-view"]')?.getAttribute('data-loaded-tokens')) < before,
      loadedTokens,
      { timeout: 15_000 },
    )
    .catch(() => {});
  const after = Number(await budget.getAttribute('data-loaded-tokens'));
  check('a smaller budget loads less', after < loadedTokens, `loaded tokens ${loadedTokens} → ${after}`);

  // Copy the prompt.
  await page.click('[data-testid="copy-prompt"]');
  await page
    .waitForFunction(async () => (await navigator.clipboard.readText()).includes('[Context loaded:'), null, { timeout: 15_000 })
    .catch(() => {});
  const clip = await page.evaluate(() => navigator.clipboard.readText());
  check('the prompt is on the clipboard', clip.includes('[Context loaded:') && clip.includes('ranking settings'), clip.slice(0, 80));

  // Chat panel is there (Ollama may be down: it must say so).
  const chatLog = page.locator('[data-testid="chat-log"]');
  check('the chat panel is there', (await chatLog.count()) > 0 && (await page.locator('[data-testid="chat-input"]').count()) > 0);

  await page.screenshot({ path: join(out, 'workbench.png') });
  check('no uncaught page errors', errors.length === 0, errors.join(' | '));
} catch (e) {
  failed++;
  console.log(`e2e: FAIL ${e instanceof Error ? e.message : e}`);
  await page.screenshot({ path: join(out, 'failure.png') }).catch(() => {});
} finally {
  await browser.close();
}
console.log(`e2e: ${passed} passed, ${failed} failed (screenshots in ${out})`);
process.exit(failed ? 1 : 0);
