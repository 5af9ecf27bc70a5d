// The web edition's own end-to-end checks in Debian's Chromium (after
// workbench.e2e.mjs, which covers ingest, graph, query, budget and copy):
// the boot overlay and its download progress, the workspace surviving a
// reload (IndexedDB) with the engine coming from the browser's cache, a
// second tab told that another has the workspace, the CORS advice for
// Ollama and the Ollama URL field, exporting the workspace file and
// importing it into a fresh browser profile (dark theme), where a query
// finds the same sections.
//
//   LOOM_E2E_URL   the web edition (required; scripts/e2e-web.sh serves build/web)
//   LOOM_E2E_OUT   screenshots (default ../../build/bin/e2e-web)
//   LOOM_E2E_DOCS  markdown files to ingest (default ../../testdata/fixture/notes)
import { chromium } from 'playwright-core';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checks } from './checks.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const url = process.env.LOOM_E2E_URL;
if (!url) {
  console.error('web-extra: set LOOM_E2E_URL to the web edition');
  process.exit(2);
}
const out = resolve(process.env.LOOM_E2E_OUT ?? join(here, '../../build/bin/e2e-web'));
const docs = resolve(process.env.LOOM_E2E_DOCS ?? join(here, '../../testdata/fixture/notes'));
mkdirSync(out, { recursive: true });

const { check, fail, done } = checks('web-extra');

const browser = await chromium.launch({
  executablePath: process.env.LOOM_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--enable-unsafe-swiftshader', '--use-angle=swiftshader'],
});

/** Records every boot phase the overlay shows (it may come and go between polls). */
const recordPhases = () => {
  window.__bootPhases = [];
  new MutationObserver(() => {
    const el = document.querySelector('[data-testid="boot-overlay"]');
    const phase = el?.getAttribute('data-phase');
    const cached = el?.getAttribute('data-cached') === 'true';
    const bytes = document.querySelector('[data-testid="boot-bytes"]')?.textContent ?? '';
    const last = window.__bootPhases[window.__bootPhases.length - 1];
    if (phase && (!last || last.phase !== phase || last.bytes !== bytes)) window.__bootPhases.push({ phase, bytes, cached });
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
};

async function ready(page) {
  await page.waitForSelector('[data-testid="drop-zone"]', { timeout: 90_000 });
  await page.waitForSelector('[data-testid="boot-overlay"]', { state: 'detached', timeout: 90_000 });
}

const docCount = (page) => page.locator('[data-testid="document-list"] [data-testid="document-item"]').count();

async function waitDocs(page, n) {
  await page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid="document-list"] [data-testid="document-item"]').length >= n,
    n,
    { timeout: 60_000 },
  );
}

async function ask(page, question) {
  await page.fill('[data-testid="query-input"]', question);
  await page.click('[data-testid="query-submit"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="manifest"]')?.textContent?.includes('[Context loaded:'), null, {
    timeout: 30_000,
  });
  return Number(await page.locator('[data-testid="budget-view"]').getAttribute('data-loaded-count'));
}

const errors = [];
const files = readdirSync(docs)
  .filter((f) => /\.(md|markdown|txt)$/.test(f))
  .map((f) => join(docs, f));
let exported = '';

try {
  // --- First visit: the overlay shows the download, then the workbench.
  const light = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light', acceptDownloads: true });
  await light.addInitScript(recordPhases);
  const page = await light.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  // Hold the engine's first download until the overlay has been seen (and
  // photographed): on the loopback it would otherwise be over at once.
  let photographed;
  const overlaySeen = new Promise((resolve) => (photographed = resolve));
  let held = false;
  await light.route('**/loom.wasm*', async (route) => {
    if (!held) {
      held = true;
      await overlaySeen;
    }
    await route.continue();
  });
  await page.goto(url);
  try {
    await page.waitForSelector('[data-testid="boot-overlay"][data-phase="download"]', { timeout: 30_000 });
    await page.screenshot({ path: join(out, 'boot-light.png') });
  } finally {
    photographed();
  }
  await ready(page);
  const phases = await page.evaluate(() => window.__bootPhases);
  check(
    'the boot overlay showed the download with bytes, then went',
    phases.some((p) => p.phase === 'download' && / of /.test(p.bytes)),
    JSON.stringify(phases.slice(0, 6)),
  );

  // Ingest, then reload: the documents are still there.
  await page.setInputFiles('[data-testid="file-input"]', files);
  await waitDocs(page, files.length);
  const before = await docCount(page);
  const statsBefore = await page.textContent('[data-testid="library-stats"]');
  await page.evaluate(() => window.__bootPhases.splice(0));
  await page.reload();
  await ready(page);
  await waitDocs(page, before).catch(() => {});
  const afterReload = await docCount(page);
  check(`the workspace survives a reload (${before} documents)`, afterReload === before && before >= files.length, `${before} → ${afterReload}`);
  check('the same counts after the reload', (await page.textContent('[data-testid="library-stats"]')) === statsBefore, statsBefore ?? '');
  const reloadPhases = await page.evaluate(() => window.__bootPhases);
  const reloadDownloads = reloadPhases.filter((p) => p.phase === 'download' && / of /.test(p.bytes));
  check(
    'the engine came from the browser cache on reload',
    reloadDownloads.length > 0 && reloadDownloads.every((p) => p.cached),
    JSON.stringify(reloadPhases.slice(0, 6)),
  );
  const cachedOnReload = await page.evaluate(async () => {
    const c = await caches.open('loom-assets');
    return (await c.keys()).map((k) => new URL(k.url).pathname.split('/').pop());
  });
  check('loom.wasm and offline.bin are in the Cache API', cachedOnReload.includes('loom.wasm') && cachedOnReload.includes('offline.bin'), cachedOnReload.join(','));
  const loaded = await ask(page, 'How is the token budget split between the output reservation and the context?');
  check('a query after the reload loads sections', loaded > 0, `loaded=${loaded}`);

  // Ollama: refused here (nothing listens), the page says how to allow this origin.
  const status = page.locator('[data-testid="ollama-status"]');
  await status.waitFor({ timeout: 20_000 });
  const statusText = (await status.textContent()) ?? '';
  const origin = new URL(url).origin;
  check('the chat says to set OLLAMA_ORIGINS to this page', statusText.includes(`OLLAMA_ORIGINS=${origin}`), statusText.slice(0, 200));
  await page.fill('[data-testid="ollama-url"]', 'http://127.0.0.1:9');
  await page.click('[data-testid="ollama-url-use"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="ollama-status"]')?.textContent?.includes('127.0.0.1:9'), null, { timeout: 20_000 }).catch(() => {});
  check('the Ollama URL field changes where the engine looks', ((await status.textContent()) ?? '').includes('127.0.0.1:9'));
  check('the Ollama URL is remembered', (await page.evaluate(() => localStorage.getItem('loom.ollamaURL'))) === 'http://127.0.0.1:9');
  await page.screenshot({ path: join(out, 'web-light.png') });

  // A second tab waits: the workspace is this one's.
  const second = await light.newPage();
  await second.goto(url);
  const waiting = await second
    .waitForSelector('[data-testid="boot-overlay"][data-phase="waiting"]', { timeout: 30_000 })
    .then(() => true)
    .catch(() => false);
  check('a second tab says another tab has the workspace', waiting && ((await second.textContent('[data-testid="boot-overlay"]')) ?? '').includes('another tab'));
  await second.screenshot({ path: join(out, 'second-tab.png') });
  await second.close();

  // Export the workspace file.
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.click('[data-testid="export-workspace"]')]);
  const exportPath = join(out, download.suggestedFilename());
  await download.saveAs(exportPath);
  exported = readFileSync(exportPath, 'utf8');
  let graph = null;
  try {
    graph = JSON.parse(exported);
  } catch {
    // checked below
  }
  check('export downloads a workspace file (graph.json with content)', graph !== null && exported.length > 1000 && /\.json$/.test(exportPath), `${exported.length} bytes`);
  await light.close();

  // --- A fresh profile (dark): import the file, the documents and a query come back.
  const dark = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
  const page2 = await dark.newPage();
  page2.on('pageerror', (e) => errors.push(String(e)));
  await page2.goto(url);
  await ready(page2);
  check('a fresh profile starts empty', (await page2.locator('[data-testid="library-empty"]').count()) === 1);
  await page2.setInputFiles('[data-testid="import-input"]', exportPath);
  await page2
    .waitForFunction(() => /Imported/.test(document.querySelector('[data-testid="workspace-file-status"]')?.textContent ?? ''), null, { timeout: 60_000 })
    .catch(() => {});
  const importStatus = (await page2.textContent('[data-testid="workspace-file-status"]').catch(() => '')) ?? '';
  check('import reports what it loaded', /Imported \d+ documents?/.test(importStatus), importStatus);
  await waitDocs(page2, before).catch(() => {});
  check(`the imported workspace lists the ${before} documents`, (await docCount(page2)) === before, `${await docCount(page2)}`);
  const loaded2 = await ask(page2, 'How is the token budget split between the output reservation and the context?');
  check('a query over the imported workspace loads sections', loaded2 > 0, `loaded=${loaded2}`);
  await page2.waitForFunction(() => Number(document.querySelector('[data-testid="graph-view"]')?.getAttribute('data-nodes') ?? 0) > 0, null, { timeout: 30_000 });
  // The picture once the layout has stopped and the graph is drawn as it ends.
  await page2.waitForSelector('[data-testid="graph-view"][data-settled="yes"]', { timeout: 60_000 });
  await page2.screenshot({ path: join(out, 'web-dark.png') });
  await page2.reload();
  await ready(page2);
  await waitDocs(page2, before).catch(() => {});
  check('the imported workspace survives a reload', (await docCount(page2)) === before);

  // Two loose files of one name in one drop (the page sends names without their folders): both are
  // kept, the second under a new name, which its line in the ingest panel says.
  await page2.setInputFiles('[data-testid="file-input"]', [
    { name: 'twin.md', mimeType: 'text/markdown', buffer: Buffer.from('# Twin\n\nThe first twin keeps a lighthouse on the northern cape.\n') },
    { name: 'twin.md', mimeType: 'text/markdown', buffer: Buffer.from('# Twin\n\nThe second twin measures glaciers in the southern valleys.\n') },
  ]);
  await waitDocs(page2, before + 2).catch(() => {});
  check('two files of one name in one drop are both added', (await docCount(page2)) === before + 2, `${await docCount(page2)} documents, ${before} before`);
  const twin = page2.locator('[data-testid="ingest-file"][data-state="done"]', { hasText: 'twin (2).md' });
  const note = (await twin.count()) === 1 ? ((await twin.textContent()) ?? '') : '';
  check('the second is added under a new name, which its line says', /this one is added as twin \(2\)\.md/.test(note), note || 'no line for twin (2).md');
  await page2.locator('[data-testid="ingest-panel"]').screenshot({ path: join(out, 'web-twin-upload.png') });
  await dark.close();

  check('no uncaught page errors', errors.length === 0, errors.join(' | '));
} catch (e) {
  fail(e instanceof Error ? e.stack : e);
} finally {
  await browser.close();
}
done(` (screenshots in ${out})`);
