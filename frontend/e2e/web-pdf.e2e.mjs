// The web edition reading PDFs, in Debian's Chromium: the engine's worker
// answers loomExtractPDF (what backend/ingest/pdf's Extract calls in
// WebAssembly) with the Raw of a real two-column paper made by pdflatex
// (fixtures/two-column.tex): its pages and sizes, the words in reading
// order, the columns, the headings' bold and larger type, the outline, the
// title and author; an encrypted PDF, a PDF without text and a file that is
// no PDF are refused with the sentence the person sees. pdf.js loads only
// when the first PDF arrives. Then the page itself: a PDF picked in the
// file input reaches the engine as its bytes, and a picked folder keeps its
// folders in the documents' names.
//
//   LOOM_E2E_URL   the web edition (required; scripts/e2e-web.sh serves build/web)
//   LOOM_E2E_OUT   screenshots (default ../../build/bin/e2e-web)
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checks } from './checks.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const url = process.env.LOOM_E2E_URL;
if (!url) {
  console.error('web-pdf: set LOOM_E2E_URL to the web edition');
  process.exit(2);
}
const out = resolve(process.env.LOOM_E2E_OUT ?? join(here, '../../build/bin/e2e-web'));
const fixtures = join(here, 'fixtures');
mkdirSync(out, { recursive: true });

const { check, fail, done } = checks('web-pdf');

const browser = await chromium.launch({
  executablePath: process.env.LOOM_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});

/** The scripts a context fetched (the page's and its workers'), by file name. */
const scripts = (names) => names.filter((n) => /\.m?js(\?|$)/.test(n)).map((n) => new URL(n).pathname.split('/').pop());

/** Runs loomExtractPDF in the engine's worker on a file's bytes: the Raw, or the rejection's message. */
async function extract(worker, bytes) {
  return worker.evaluate(async (b64) => {
    const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const started = performance.now();
    try {
      const raw = JSON.parse(await globalThis.loomExtractPDF(data));
      return { raw, ms: Math.round(performance.now() - started) };
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e), isError: e instanceof Error };
    }
  }, Buffer.from(bytes).toString('base64'));
}

/** The bytes of a file in the engine's file system (the worker's), base64. */
async function engineFile(worker, path) {
  return worker.evaluate(
    (path) =>
      new Promise((resolve, reject) => {
        const fs = globalThis.fs;
        fs.open(path, 0, 0, (err, fd) => {
          if (err) return reject(new Error(`${path}: ${err.code ?? err}`));
          fs.fstat(fd, (err, st) => {
            if (err) return reject(err);
            const buf = new Uint8Array(st.size);
            fs.read(fd, buf, 0, st.size, 0, (err) => {
              fs.close(fd, () => {});
              if (err) return reject(err);
              let s = '';
              for (let i = 0; i < buf.length; i += 0x8000) s += String.fromCharCode(...buf.subarray(i, i + 0x8000));
              resolve(btoa(s));
            });
          });
        });
      }),
    path,
  );
}

const errors = [];
const tree = mkdtempSync(join(tmpdir(), 'loom-web-pdf-'));
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  // Every message the engine's worker sends the page: pdf.js's worker half,
  // loaded inside it, must not speak to the page (it would, unhindered).
  await context.addInitScript(() => {
    const Native = window.Worker;
    window.__workerMessages = [];
    window.Worker = class extends Native {
      constructor(...args) {
        super(...args);
        this.addEventListener('message', (e) => window.__workerMessages.push(e.data?.type ?? JSON.stringify(e.data)));
      }
    };
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  const engineWorker = page.waitForEvent('worker', { predicate: (w) => /\/worker-[^/]*\.js/.test(w.url()), timeout: 60_000 });
  await page.goto(url);
  const worker = await engineWorker;
  await page.waitForSelector('[data-testid="drop-zone"]', { timeout: 90_000 });
  await page.waitForSelector('[data-testid="boot-overlay"]', { state: 'detached', timeout: 90_000 });

  // --- pdf.js is not part of the first load.
  const pageScripts = () => page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
  const workerScripts = () => worker.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
  const before = scripts([...(await pageScripts()), ...(await workerScripts())]);
  check('the first load fetches no pdf.js', !before.some((n) => /^pdf/.test(n)), before.join(' '));
  check('the worker offers loomExtractPDF before any PDF', await worker.evaluate(() => typeof globalThis.loomExtractPDF === 'function'));

  // --- A real two-column paper.
  const pdf = readFileSync(join(fixtures, 'two-column.pdf'));
  const got = await extract(worker, pdf);
  const raw = got.raw;
  if (!raw) throw new Error(`two-column.pdf was refused: ${got.error}`);
  console.log(`web-pdf: two-column.pdf (${pdf.length} bytes, ${raw.pages.length} pages) read in ${got.ms} ms, pdf.js's first load included`);
  const after = scripts(await workerScripts()).filter((n) => !before.includes(n));
  check('pdf.js arrives in chunks of its own when the first PDF does', after.some((n) => /^pdf/.test(n)), after.join(' '));
  const again = await extract(worker, pdf);
  console.log(`web-pdf: the same PDF again in ${again.ms} ms`);

  check('the Raw has both pages, numbered', raw.pages.length === 2 && raw.pages.map((p) => p.number).join() === '1,2', JSON.stringify(raw.pages.map((p) => p.number)));
  const a4 = raw.pages.every((p) => Math.abs(p.width - 595.28) < 0.05 && Math.abs(p.height - 841.89) < 0.05);
  check('each page is A4 in points', a4, JSON.stringify(raw.pages.map((p) => [p.width, p.height])));
  check('the title and author come from the information dictionary', raw.title === 'Reading Order in Two Columns' && raw.author === 'Ada Lovelace', `${raw.title} / ${raw.author}`);

  const text = raw.pages.map((p) => p.runs.map((r) => r.text).join(' ')).join(' \f ');
  const markers = ['Alphaword', 'Betaword', 'Gammaword', 'Deltaword', 'Epsilonword', 'Zetaword'];
  const at = markers.map((m) => text.indexOf(m));
  check('the words come in reading order: left column, right column, next page', at.every((i, k) => i >= 0 && (k === 0 || i > at[k - 1])), JSON.stringify(at));
  check('the second page starts with its own words', raw.pages[1].runs.map((r) => r.text).join(' ').includes('Zetaword') && !raw.pages[0].runs.some((r) => r.text.includes('Zetaword')));

  const [first] = raw.pages;
  const run = (p, word) => p.runs.find((r) => r.text.includes(word));
  const half = first.width / 2;
  const left = ['Alphaword', 'Betaword', 'Gammaword'].map((w) => run(first, w));
  const right = ['Deltaword', 'Epsilonword'].map((w) => run(first, w));
  check('the left column’s runs lie left of the middle, the right one’s right of it', left.every((r) => r && r.x1 < half) && right.every((r) => r && r.x0 > half), JSON.stringify([...left, ...right].map((r) => r && [r.text.slice(0, 12), r.x0, r.x1])));
  check('y grows down the page (top-left origin)', left[0].y0 < left[1].y0 && left[1].y0 < left[2].y0 && right[0].y0 < right[1].y0, JSON.stringify(left.map((r) => r.y0)));
  check('a run’s box is one font size tall, above its baseline', first.runs.every((r) => Math.abs(r.y1 - r.y0 - r.size) < 0.05 && r.x1 > r.x0), JSON.stringify(first.runs.find((r) => Math.abs(r.y1 - r.y0 - r.size) >= 0.05)));

  const body = run(first, 'Alphaword');
  const section = run(first, 'Introduction');
  const subsection = run(first, 'Sampling');
  const title = run(first, 'Reading Order');
  check('body text is 10 pt, upright, in Computer Modern', Math.abs(body.size - 9.96) < 0.1 && !body.bold && !body.italic && body.font === 'CMR10', JSON.stringify(body));
  check('a section heading is bold and larger (CMBX12, 14.3 pt)', section.bold && section.size > 14 && section.font === 'CMBX12', JSON.stringify(section));
  check('a subsection heading is bold, between body and section', subsection.bold && subsection.size > body.size && subsection.size < section.size, JSON.stringify(subsection));
  check('the title is the largest type and not bold', title.size > 17 && !title.bold && title.size === Math.max(...first.runs.map((r) => r.size)), JSON.stringify(title));
  check('emphasis is italic (CMTI10)', run(first, 'emphasised')?.italic === true, JSON.stringify(run(first, 'emphasised')));
  check('\\textbf is bold (CMBX10)', run(first, 'strong')?.bold === true, JSON.stringify(run(first, 'strong')));
  check('no run is blank', raw.pages.every((p) => p.runs.every((r) => r.text.trim() !== '')));

  const outline = raw.outline.map((o) => `${o.level} ${o.title} p${o.page}`);
  check(
    'the outline lists the sections with levels and pages',
    JSON.stringify(outline) === JSON.stringify(['1 1 Introduction p1', '1 2 Method p1', '2 2.1 Sampling p1', '1 3 Results p1', '1 4 Discussion p1', '1 5 Conclusion p2']),
    JSON.stringify(outline),
  );
  const intro = raw.outline[0];
  check('an outline entry’s y is just above its heading', intro.y >= 0 && intro.y <= section.y1 && section.y1 - intro.y < 30, `outline y ${intro.y}, heading ${section.y0}–${section.y1}`);

  // --- What is refused, and how it is said.
  const encrypted = await extract(worker, readFileSync(join(fixtures, 'encrypted.pdf')));
  check('an encrypted PDF is refused as encrypted', encrypted.isError && encrypted.error.startsWith('is encrypted: Loom cannot read password-protected PDFs'), JSON.stringify(encrypted));
  const scan = await extract(worker, readFileSync(join(fixtures, 'no-text.pdf')));
  check('a PDF without text is refused as having no text layer', scan.isError && scan.error.startsWith('has no text layer: its page is images only'), JSON.stringify(scan));
  const notPDF = await extract(worker, Buffer.from('# Not a PDF\n\nJust a note with the wrong name.\n'));
  check('a file that is no PDF is refused as not a PDF', notPDF.isError && notPDF.error.startsWith('is not a PDF or is damaged: '), JSON.stringify(notPDF));
  const truncated = await extract(worker, pdf.subarray(0, 2000));
  check('a truncated PDF is refused as damaged', truncated.isError && /^is not a PDF or is damaged: /.test(truncated.error), JSON.stringify(truncated));
  const still = await extract(worker, pdf);
  check('the reader still works after the refusals', still.raw?.pages.length === 2, JSON.stringify(still.error));
  const strays = (await page.evaluate(() => window.__workerMessages)).filter((t) => !['boot', 'result', 'event', 'flushed'].includes(t));
  check('pdf.js sends the page nothing of its own', strays.length === 0, JSON.stringify(strays.slice(0, 5)));

  // --- The page: a PDF picked in the file input reaches the engine as its bytes.
  await page.setInputFiles('[data-testid="file-input"]', [join(fixtures, 'two-column.pdf'), join(fixtures, 'two-column.tex')]);
  await page.waitForSelector('[data-testid="ingest-summary"]', { timeout: 60_000 });
  await page.waitForSelector('[data-testid="ingest-panel"][data-ingesting="false"]', { timeout: 60_000 });
  const files = await page.locator('[data-testid="ingest-file"]').evaluateAll((els) => els.map((el) => ({ state: el.dataset.state, text: el.textContent })));
  const pdfLine = files.find((f) => f.text.includes('two-column.pdf'));
  check('the page sends the PDF to the engine rather than skipping it', pdfLine && !pdfLine.text.includes('was skipped'), JSON.stringify(files));
  console.log(`web-pdf: the engine's word on two-column.pdf: ${pdfLine?.state} ${pdfLine?.text}`);
  const stored = await engineFile(worker, '/loom/workspace/uploads/two-column.pdf').catch((e) => String(e));
  check('the engine stores the PDF’s bytes exactly', stored === pdf.toString('base64'), `${stored.length} base64 characters, want ${pdf.toString('base64').length}`);

  // --- A picked folder keeps its folders: same-named notes stay apart.
  for (const [path, body] of [
    ['vault/daily/index.md', '# Daily\n\nThe daily notes gather what happened each day.\n'],
    ['vault/projects/index.md', '# Projects\n\nThe projects note lists what is being built.\n'],
  ]) {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), body);
  }
  await page.setInputFiles('input[webkitdirectory]', join(tree, 'vault'));
  await page.waitForFunction(() => (document.querySelector('[data-testid="document-group"][data-collection="vault"]')?.querySelectorAll('[data-testid="document-item"]').length ?? 0) >= 2, null, { timeout: 60_000 });
  const vault = await page.locator('[data-testid="document-group"][data-collection="vault"] [data-testid="document-item"]').allTextContents();
  check('a picked folder is its collection, with both same-named notes', vault.length === 2, JSON.stringify(vault));
  const storedNotes = await Promise.all(['daily', 'projects'].map((d) => engineFile(worker, `/loom/workspace/uploads/vault/${d}/index.md`).then(() => true, () => false)));
  check('each note is stored under its own folder', storedNotes.every(Boolean), JSON.stringify(storedNotes));
  await page.screenshot({ path: join(out, 'web-pdf.png') });
  check('no uncaught page errors', errors.length === 0, errors.join(' | '));
} catch (e) {
  fail(e instanceof Error ? e.stack : e);
} finally {
  rmSync(tree, { recursive: true, force: true });
  await browser.close();
}
done();
