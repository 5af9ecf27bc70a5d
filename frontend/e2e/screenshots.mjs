#!/usr/bin/env node
// The README's screenshots of the workbench and its graph, taken in Debian's
// Chromium from the web edition on a real library: the sample library, the
// fixture notes (testdata/fixture/notes), README.md and BENCHMARKS.md, and a
// question about the token budget.
//
//   make web && node frontend/e2e/serve.mjs build/web 8080 &
//   LOOM_E2E_URL=http://127.0.0.1:8080/ node frontend/e2e/screenshots.mjs [--out docs] [--dark]
//
// Writes workbench.png (the workbench after the question: graph coloured by
// hops beside the context), graph-focus.png (the graph alone, focused on the
// question's neighbourhood in rings) and, when the engine found clusters,
// graph-clusters.png (the graph zoomed out: clusters as super-nodes, their
// strongest links, one expanded). With --dark, the dark theme and a -dark
// suffix. Not a test: it says what it wrote and what it could not.
import { chromium } from 'playwright-core';
import { mkdirSync, readdirSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const url = process.env.LOOM_E2E_URL;
if (!url) {
  console.error('screenshots: set LOOM_E2E_URL to the web edition');
  process.exit(2);
}
const outIdx = args.indexOf('--out');
const out = resolve(outIdx >= 0 ? args[outIdx + 1] : join(here, '../../docs'));
const dark = args.includes('--dark');
const suffix = dark ? '-dark' : '';
mkdirSync(out, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.LOOM_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--enable-unsafe-swiftshader', '--use-angle=swiftshader'],
});
const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: dark ? 'dark' : 'light' });
const page = await context.newPage();
const settled = () => page.waitForSelector('[data-testid="graph-view"][data-settled="yes"]', { timeout: 60_000 });
const wrote = [];

try {
  await page.goto(url);
  await page.waitForSelector('[data-testid="drop-zone"]', { timeout: 90_000 });
  await page.waitForSelector('[data-testid="boot-overlay"]', { state: 'detached', timeout: 90_000 }).catch(() => {});
  await page.click('[data-testid="try-sample"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="document-item"]').length >= 8, null, { timeout: 90_000 });
  const notes = join(here, '../../testdata/fixture/notes');
  const files = readdirSync(notes)
    .filter((f) => /\.(md|markdown|txt)$/.test(f))
    .map((f) => join(notes, f));
  files.push(join(here, '../../README.md'), join(here, '../../BENCHMARKS.md'));
  const before = await page.locator('[data-testid="document-item"]').count();
  await page.setInputFiles('[data-testid="file-input"]', files);
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="document-item"]').length >= n, before + files.length, { timeout: 90_000 });
  await page.getByRole('button', { name: 'Dismiss the ingest report' }).click({ timeout: 5000 }).catch(() => {});
  await page.fill('[data-testid="query-input"]', 'How is the loadable token budget calculated from the context window?');
  await page.click('[data-testid="query-submit"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="manifest"]')?.textContent?.includes('[Context loaded:'), null, { timeout: 60_000 });
  await settled();
  await page.waitForTimeout(500); // pacing: the last frame
  await page.screenshot({ path: join(out, `workbench${suffix}.png`) });
  wrote.push(`workbench${suffix}.png`);

  // The graph alone: the question's neighbourhood in rings.
  await page.getByRole('button', { name: 'Graph', exact: true }).click();
  await page.click('[data-testid="toggle-chat"]');
  await settled();
  await page.click('[data-testid="graph-focus"]');
  await page.waitForTimeout(900); // pacing: the camera frames the rings
  await settled();
  await page.mouse.move(2, 2);
  await page.locator('[data-testid="graph-view"]').screenshot({ path: join(out, `graph-focus${suffix}.png`) });
  wrote.push(`graph-focus${suffix}.png`);
  await page.click('[data-testid="graph-focus"]');

  // Zoomed out: the clusters, one of them expanded.
  const clusters = Number(await page.locator('[data-testid="graph-view"]').getAttribute('data-clusters'));
  if (clusters > 0) {
    await page.click('[data-testid="graph-filters-toggle"]');
    await page.locator('[data-testid="graph-detail"]').fill('0');
    await page.click('[data-testid="graph-filters-toggle"]');
    await page.getByRole('button', { name: 'Fit all' }).click();
    await page.waitForTimeout(700); // pacing
    await settled();
    await page.locator('[data-testid="graph-view"]').screenshot({ path: join(out, `graph-clusters${suffix}.png`) });
    wrote.push(`graph-clusters${suffix}.png`);
  } else {
    console.log('screenshots: the engine sent no clusters: graph-clusters.png not taken');
  }
} finally {
  await browser.close();
}
console.log(`screenshots: wrote ${wrote.map((f) => join(out, f)).join(', ')}`);
