// Numbers of the web edition in headless Chromium, printed as JSON:
//   - loom.wasm's size, raw and gzipped (level 9)
//   - time to interactive: page load → engine ready (boot overlay gone, the
//     library shown), first load (empty browser cache) and cached reload
//   - ingest of the reference documents through the page's file input (ms)
//   - query latency p50/p99 at ~1k and ~10k content nodes: synthetic
//     markdown ingested with ingestUploads, then `query` calls with a
//     budget of 4000 timed in the page (window.loomWorkbench)
//   - reopening the largest of those workspaces (reload: restore from
//     IndexedDB, start, open) and what IndexedDB holds
//
//   node frontend/e2e/web-bench.mjs            (after make web)
//
//   LOOM_BENCH_DIR    the site (default ../../build/web)
//   LOOM_BENCH_REF    the reference documents (default /work/shared/reference)
//   LOOM_BENCH_SIZES  content node counts (default 1000,10000)
//   LOOM_BENCH_QUERIES timed queries per size (default 100)
import { chromium } from 'playwright-core';
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dir = resolve(process.env.LOOM_BENCH_DIR ?? join(here, '../../build/web'));
const refDir = resolve(process.env.LOOM_BENCH_REF ?? '/work/shared/reference');
const sizes = (process.env.LOOM_BENCH_SIZES ?? '1000,10000').split(',').map(Number);
const queries = Number(process.env.LOOM_BENCH_QUERIES ?? 100);
const log = (...a) => console.error('web-bench:', ...a);

const wasm = readFileSync(join(dir, 'loom.wasm'));
const result = {
  wasm_bytes: wasm.length,
  wasm_gzip_bytes: gzipSync(wasm, { level: 9 }).length,
  table_bytes: statSync(join(dir, 'offline.bin')).size,
};
log(`loom.wasm ${result.wasm_bytes} bytes, gzip ${result.wasm_gzip_bytes}`);

const { server, url } = await serve(dir, 0, '/');
const browser = await chromium.launch({
  executablePath: process.env.LOOM_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
result.chromium = browser.version();

async function ready(page) {
  await page.waitForSelector('[data-testid="drop-zone"]', { timeout: 120_000 });
  await page.waitForSelector('[data-testid="boot-overlay"]', { state: 'detached', timeout: 120_000 });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const round = (x) => Math.round(x * 10) / 10;

try {
  // --- Time to interactive: three fresh profiles, each loaded then reloaded.
  const first = [];
  const cached = [];
  for (let i = 0; i < 3; i++) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await ctx.newPage();
    let t = Date.now();
    await page.goto(url);
    await ready(page);
    first.push(Date.now() - t);
    t = Date.now();
    await page.reload();
    await ready(page);
    cached.push(Date.now() - t);
    await ctx.close();
  }
  result.tti_first_ms = { median: median(first), runs: first };
  result.tti_cached_ms = { median: median(cached), runs: cached };
  log('time to interactive', JSON.stringify({ first, cached }));

  // --- Ingest of the reference documents through the file input.
  const refs = existsSync(refDir) ? readdirSync(refDir).filter((f) => f.endsWith('.md')).map((f) => join(refDir, f)) : [];
  if (refs.length) {
    const runs = [];
    for (let i = 0; i < 3; i++) {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await ctx.newPage();
      await page.goto(url);
      await ready(page);
      const t = Date.now();
      await page.setInputFiles('[data-testid="file-input"]', refs);
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid="document-list"] [data-testid="document-item"]').length >= n,
        refs.length,
        { timeout: 120_000 },
      );
      runs.push(Date.now() - t);
      if (i === 0) {
        const s = await page.evaluate(() => window.loomWorkbench.stats());
        result.reference = { documents: s.documents, content_nodes: s.content_nodes, concept_nodes: s.concept_nodes, tokens: s.tokens, bytes: refs.reduce((a, f) => a + statSync(f).size, 0) };
      }
      // The engine's own time for the same files, without the page around it.
      const texts = refs.map((f) => ({ name: `again/${f.split('/').pop()}`, text: readFileSync(f, 'utf8') }));
      const engine = await page.evaluate(async (files) => {
        const t0 = performance.now();
        const r = await window.loomWorkbench.ingestUploads(files);
        return { ms: performance.now() - t0, engine_ms: r.duration_ns / 1e6 };
      }, texts);
      if (i === 0) result.reference_ingest_call = { call_ms: round(engine.ms), engine_ms: round(engine.engine_ms) };
      await ctx.close();
    }
    result.reference_ingest_ms = { median: median(runs), runs, note: 'file input → the documents listed (UI included)' };
    log('reference ingest', JSON.stringify(runs));
  }

  // --- Query latency at 1k and 10k content nodes.
  const text = refs.map((f) => readFileSync(f, 'utf8')).join('\n') || readFileSync(join(here, '../../README.md'), 'utf8');
  const vocab = [...new Set(text.toLowerCase().match(/[a-z][a-z-]{3,}/g))];
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  await page.goto(url);
  await ready(page);
  result.query = [];
  let have = 0;
  let docNo = 0;
  for (const target of sizes) {
    // Documents of 10 sections of ~80 words each, drawn from the references' words.
    let seed = 12345 + target;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const word = () => vocab[Math.floor(rnd() * vocab.length)];
    const para = (n) => Array.from({ length: n }, word).join(' ') + '.';
    const t0 = Date.now();
    while (have < target) {
      const batch = [];
      for (let d = 0; d < 100 && have + batch.length * 10 < target; d++) {
        docNo++;
        let md = `# Note ${docNo}: ${word()} ${word()}\n\n${para(30)}\n`;
        for (let s = 0; s < 9; s++) md += `\n## ${word()} ${word()} ${s + 1}\n\n${para(40)} ${para(40)}\n`;
        batch.push({ name: `synthetic/n${docNo}.md`, text: md });
      }
      await page.evaluate((files) => window.loomWorkbench.ingestUploads(files), batch);
      const s = await page.evaluate(() => window.loomWorkbench.stats());
      have = s.content_nodes;
    }
    const ingestMs = Date.now() - t0;
    const stats = await page.evaluate(() => window.loomWorkbench.stats());
    log(`${stats.content_nodes} content nodes (${ingestMs} ms to ingest)`);
    const questions = Array.from({ length: 20 }, () => `How does ${word()} relate to ${word()} and ${word()}?`);
    const times = await page.evaluate(
      async ({ questions, n }) => {
        const wb = window.loomWorkbench;
        for (const q of questions.slice(0, 3)) await wb.query({ question: q, budget: 4000 });
        const out = [];
        for (let i = 0; i < n; i++) {
          const t = performance.now();
          await wb.query({ question: questions[i % questions.length], budget: 4000 });
          out.push(performance.now() - t);
        }
        return out;
      },
      { questions, n: queries },
    );
    result.query.push({
      content_nodes: stats.content_nodes,
      concept_nodes: stats.concept_nodes,
      documents: stats.documents,
      ingest_ms: ingestMs,
      queries: times.length,
      budget: 4000,
      p50_ms: round(pct(times, 50)),
      p99_ms: round(pct(times, 99)),
      max_ms: round(Math.max(...times)),
    });
    log(JSON.stringify(result.query.at(-1)));
  }
  // Reopen the largest workspace: restore from IndexedDB, start, open.
  const before = await page.evaluate(() => window.loomWorkbench.stats());
  await page.evaluate(() => window.loomWorkbench.flush()); // what the last queries wrote, saved
  const engineLog = [];
  page.on('console', (m) => {
    if (m.text().startsWith('loom:')) engineLog.push(m.text());
  });
  const t = Date.now();
  await page.reload();
  await ready(page);
  const after = await page.evaluate(() => window.loomWorkbench.stats());
  const tti = Date.now() - t;
  const same = ['documents', 'content_nodes', 'concept_nodes', 'edges', 'tokens'].every((k) => after[k] === before[k]);
  result.reopen = { content_nodes: after.content_nodes, same, tti_ms: tti };
  if (!same) result.reopen.stats = { before, after };
  const estimate = await page.evaluate(() => navigator.storage.estimate());
  result.reopen.storage_bytes = estimate.usageDetails?.indexedDB ?? estimate.usage;
  result.reopen.engine = engineLog.find((l) => l.includes('engine ready'));
  log('reopen', JSON.stringify(result.reopen), engineLog.join(' | '));
  await ctx.close();
} finally {
  await browser.close();
  server.close();
}
console.log(JSON.stringify(result, null, 2));
