#!/usr/bin/env node
// The first useful picture of a real workspace's graph, end to end: the
// workbench page at --url (the desktop app under `wails dev`, whose page
// calls the same Go bindings as the window, or the web edition), opened in
// headless Chromium. Measured from navigation, on the page's own clock:
//
//   - data: the first frame where the graph view holds the engine's nodes
//     (the workspace opened, clusters built, Graph returned over the bridge,
//     the JSON parsed);
//   - picture: the first frame after that drawing something useful (the
//     clusters, or nodes when the workspace has none);
//   - settled: the layout done and restyling finished (data-settled);
//   - the main thread's long tasks (> 50 ms) between the picture and settled:
//     how long the page could not answer the person's input.
//
//   node e2e/graph-open.mjs [--url http://localhost:34115] [--runs 3]
//        [--chromium /usr/bin/chromium] [--screenshot /tmp/graph-open.png]
//
// Each run is a fresh browser context and a fresh page load; the engine
// keeps its workspace open between runs (as the desktop app does between
// reloads), so run 1 includes opening the workspace and building the
// clusters and later runs the cached clusters. A benchmark, not a test: not
// part of `npm test` or `make test`. Used for BENCHMARKS.md (issue 22).
import { chromium } from 'playwright-core';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const URL_ = opt('url', 'http://localhost:34115');
const RUNS = Number(opt('runs', 3));
const CHROMIUM = opt('chromium', process.env.CHROMIUM ?? '/usr/bin/chromium');
const SHOT = opt('screenshot', '');

// Installed before the page's own scripts: watches the graph view once per
// frame and notes when its data, its first useful picture and its settled
// state first appear.
const watcher = () => {
  const marks = { longTasks: [] };
  window.__graphOpen = marks;
  // Main-thread tasks over 50 ms (the page frozen that long), from the first picture to settled.
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (marks.picture !== undefined && marks.settled === undefined) marks.longTasks.push(Math.round(e.duration));
  }).observe({ type: 'longtask' });
  const tick = () => {
    const el = document.querySelector('[data-testid="graph-view"]');
    if (el) {
      const n = (k) => Number(el.getAttribute(k) ?? 0);
      const now = performance.now();
      if (marks.data === undefined && n('data-nodes') > 0) marks.data = now;
      if (marks.data !== undefined && marks.picture === undefined && (n('data-drawn-clusters') > 0 || n('data-drawn-nodes') > 0)) {
        marks.picture = now;
        marks.at = { level: el.getAttribute('data-level'), clusters: n('data-drawn-clusters'), nodes: n('data-drawn-nodes'), engineNodes: n('data-nodes') };
      }
      if (marks.picture !== undefined && marks.settled === undefined && el.getAttribute('data-settled') === 'yes') marks.settled = now;
    }
    if (marks.settled === undefined) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
};

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--disable-gpu', '--no-sandbox'] });
const rows = [];
try {
  for (let run = 1; run <= RUNS; run++) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.addInitScript(watcher);
    await page.goto(URL_);
    await page.waitForFunction(() => window.__graphOpen?.settled !== undefined, null, { timeout: 300_000, polling: 250 });
    const m = await page.evaluate(() => window.__graphOpen);
    if (SHOT && run === RUNS) await page.screenshot({ path: SHOT });
    rows.push(m);
    console.log(
      `run ${run}: data ${Math.round(m.data)} ms, first useful picture ${Math.round(m.picture)} ms (${Math.round(m.picture - m.data)} ms after the data; level ${m.at.level}, ${m.at.clusters} clusters, ${m.at.nodes} nodes drawn of ${m.at.engineNodes}), settled ${Math.round(m.settled)} ms, ${m.longTasks.length} long tasks between (longest ${Math.max(0, ...m.longTasks)} ms)${errors.length ? `; page errors: ${errors.join(' | ')}` : ''}`,
    );
    await context.close();
    if (errors.length) process.exitCode = 1;
  }
} finally {
  await browser.close();
}
