#!/usr/bin/env node
// Graph view in a real browser: builds e2e/graph-harness (GraphView over a
// synthetic graph with clusters, 10,000 nodes / 40,000 edges by default),
// serves it, and measures, in the light and the dark theme:
//
//   - the first picture: time to the renderer's first frame, and to the
//     first frame that draws something useful (clusters, or nodes when there
//     are none), from navigation and from the moment the data was there;
//   - the page's own work per frame (script, style and layout on its main
//     thread, from a Chromium trace: e2e/frame-trace.mjs) while the camera
//     pans and zooms through every level of detail, by animation and by
//     real wheel and drag input; and Performance.getMetrics totals per frame;
//   - frames per second while that happens, and while the layout runs;
//   - hover and select response, restyle time, labels placed;
//   - screenshots: /tmp/graph-<n>-<scheme>-<level>.png.
//
//   node e2e/graph-perf.mjs [--nodes 10000] [--edges 40000] [--no-clusters]
//        [--schemes light,dark] [--first-picture] [--chromium /usr/bin/chromium] [--no-build]
//
// --first-picture measures only the first picture (and the frames of a pan
// and a zoom over it), for big workspaces: node e2e/graph-perf.mjs --nodes
// 50000 --edges 200000 --first-picture.
//
// Not part of `npm test` or `make test`: a benchmark, not a test. Its
// waitForTimeout calls (each marked "pacing") space the pointer's moves and
// let camera animations end between measurements; no check depends on them.
// With --disable-gpu Chromium draws WebGL in software (SwiftShader), so the
// frame rates are a floor, not what a GPU does; the page's own work per
// frame does not include the GPU's.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { chromium } from 'playwright-core';
import { framesFromTrace, openMetrics, startTrace } from './frame-trace.mjs';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const NODES = Number(opt('nodes', 10000));
const EDGES = Number(opt('edges', 40000));
const CLUSTERS = !args.includes('--no-clusters');
const FIRST_ONLY = args.includes('--first-picture');
const SCHEMES = opt('schemes', 'light,dark').split(',');
const CHROMIUM = opt('chromium', process.env.CHROMIUM ?? '/usr/bin/chromium');
const OUT = process.env.LOOM_GRAPH_HARNESS_OUT ?? '/tmp/loom-graph-harness';
const here = fileURLToPath(new URL('.', import.meta.url));
const tag = `${Math.round(NODES / 1000)}k${CLUSTERS ? '' : '-noclusters'}`;

if (!args.includes('--no-build')) {
  process.env.LOOM_GRAPH_HARNESS_OUT = OUT;
  await build({ configFile: join(here, 'graph-harness', 'vite.config.ts'), logLevel: 'warn' });
}

const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };
const server = createServer(async (req, res) => {
  let path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
  if (path.endsWith('/')) path += 'index.html';
  try {
    const body = await readFile(join(OUT, path));
    res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}/`;

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    // WebGL in software: SwiftShader through ANGLE.
    '--use-gl=angle',
    '--use-angle=swiftshader',
    '--enable-unsafe-swiftshader',
    '--ignore-gpu-blocklist',
  ],
});

const log = (msg) => process.stderr.write(`graph-perf: ${msg}\n`);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : null;
};
const round = (x, d = 1) => (x === null || x === undefined || !Number.isFinite(x) ? null : Math.round(x * 10 ** d) / 10 ** d);

const viewAttrs = (page) =>
  page.evaluate(() => {
    const el = document.querySelector('[data-testid=graph-view]');
    return Object.fromEntries([...el.attributes].filter((a) => a.name.startsWith('data-') && a.name !== 'data-testid').map((a) => [a.name.slice(5), a.value]));
  });

/** Waits until the layout has stopped and restyling is done (data-settled); says what was still under way if it never is. */
const settle = async (page, timeout = 90000) => {
  try {
    await page.waitForSelector('[data-testid=graph-view][data-settled=yes]', { timeout });
  } catch (e) {
    const sample = () => page.evaluate(() => {
      const sc = window.__graph?.scene;
      const sg = window.__graph.sigma;
      const cap = sg.getMouseCaptor();
      return sc && { hideEdges: sg.settings.hideEdgesOnMove, joiningAt: sc.joining && [sc.joining.c, sc.joining.at, sc.joining.edgesAt, sc.joining.listAt, sc.joining.ids.length], animated: sg.getCamera().isAnimated(), mouseDown: cap.isMouseDown, isMoving: cap.isMoving, dragged: cap.draggedEvents, frame: sc.frame, busy: sc.busy, pendingNodes: sc.pendingNodes.size, pendingEdges: sc.pendingEdges.size, joining: Boolean(sc.joining), wanted: sc.wanted.length, leaving: sc.leaving.length, resting: sc.resting, view: [sc.view.order, sc.view.size] };
    });
    const s = await sample();
    await page.waitForTimeout(2000);
    const s2 = await sample();
    throw new Error(`the graph did not settle: ${JSON.stringify(s)}, 2 s later ${JSON.stringify(s2)}; ${e.message}`);
  }
};

/**
 * Runs `action` under a trace and Performance.getMetrics; returns the
 * page's own work per frame, the sigma renders per second and the metrics'
 * script+style+layout per rendered frame.
 */
async function measureFrames(page, metrics, action) {
  const stop = await startTrace(page);
  const m0 = await metrics.read();
  const r0 = await page.evaluate(() => [window.__renders, performance.now()]);
  await action();
  const r1 = await page.evaluate(() => [window.__renders, performance.now()]);
  const m1 = await metrics.read();
  const frames = framesFromTrace(await stop());
  const renders = r1[0] - r0[0];
  const seconds = (r1[1] - r0[1]) / 1000;
  const per = (k) => (m1[k] - m0[k]) / Math.max(1, renders);
  return {
    ...frames,
    sigmaRendersPerSecond: round(renders / seconds),
    metricsPerRenderMs: { script: round(per('script'), 2), style: round(per('style'), 2), layout: round(per('layout'), 2) },
  };
}

/** Camera animations through every level: overview, concepts, sections, back. */
function animateCamera(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const camera = window.__graph.sigma.getCamera();
        const steps = [
          { x: 0.45, y: 0.5, ratio: 0.8 },
          { x: 0.35, y: 0.4, ratio: 0.32 },
          { x: 0.6, y: 0.55, ratio: 0.12 },
          { x: 0.5, y: 0.45, ratio: 0.1 },
          { x: 0.55, y: 0.5, ratio: 0.4 },
          { x: 0.5, y: 0.5, ratio: 1 },
        ];
        let i = 0;
        const next = () => {
          if (i < steps.length) camera.animate(steps[i++], { duration: 700 }).then(next);
          else resolve();
        };
        next();
      }),
  );
}

/** Real input: drags, and small wheel steps that stay at the same level of detail, for `ms`. */
async function panOverDetail(page, ms) {
  const stage = await page.locator('[data-testid=graph-view] .canvas').boundingBox();
  const cx = stage.x + stage.width / 2;
  const cy = stage.y + stage.height / 2;
  await page.mouse.move(cx, cy);
  const t = Date.now();
  let dir = 1;
  while (Date.now() - t < ms) {
    await page.mouse.down();
    for (let k = 0; k < 12; k++) await page.mouse.move(cx + dir * 12 * k, cy + dir * 6 * k);
    await page.mouse.up();
    await page.mouse.wheel(0, dir * -60);
    dir = -dir;
  }
  await page.waitForTimeout(400); // pacing: let the last wheel animation end
}

/** Real input: wheel zoom in and out and mouse drags, for `ms`. */
async function wheelAndDrag(page, ms) {
  const stage = await page.locator('[data-testid=graph-view] .canvas').boundingBox();
  const cx = stage.x + stage.width / 2;
  const cy = stage.y + stage.height / 2;
  await page.mouse.move(cx, cy);
  const t = Date.now();
  let zoomIn = true;
  while (Date.now() - t < ms) {
    for (let w = 0; w < 3; w++) await page.mouse.wheel(0, zoomIn ? -240 : 240);
    zoomIn = !zoomIn;
    await page.mouse.down();
    for (let k = 0; k < 10; k++) await page.mouse.move(cx + 14 * k, cy + 7 * k);
    await page.mouse.up();
    await page.mouse.down();
    for (let k = 10; k >= 0; k--) await page.mouse.move(cx + 14 * k, cy + 7 * k);
    await page.mouse.up();
  }
  await page.waitForTimeout(400); // pacing: let the last wheel animation end
}

async function run(colorScheme) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => {
    errors.push(String(e));
    log(`page error: ${e.stack ?? e}`);
  });
  page.on('console', (m) => m.type() === 'error' && !m.text().includes('favicon') && !m.text().includes('404') && errors.push(m.text()));

  const navStart = Date.now();
  await page.goto(`${base}?n=${NODES}&m=${EDGES}${CLUSTERS ? '' : '&clusters=0'}`);
  const webgl = await page.evaluate(() => document.querySelector('[data-testid=graph-view]')?.getAttribute('data-webgl'));
  if (webgl !== 'yes') throw new Error(`no WebGL in this Chromium (data-webgl=${webgl}); errors: ${errors.join('; ')}`);
  await page.waitForFunction(() => window.__tFirstPicture !== undefined, null, { timeout: 120000 });
  const first = await page.evaluate(() => ({
    data: window.__tData - window.__t0,
    firstRender: window.__tFirstRender - window.__t0,
    firstPicture: window.__tFirstPicture - window.__t0,
    firstPictureAfterData: window.__tFirstPicture - window.__tData,
  }));
  const wallFirstPicture = Date.now() - navStart;
  const atFirst = await viewAttrs(page);
  log(`${colorScheme}: first useful picture ${round(first.firstPicture)} ms after navigation (${round(first.firstPictureAfterData)} ms after the data), ${atFirst['drawn-clusters']} clusters, ${atFirst['drawn-nodes']} nodes drawn`);
  await page.screenshot({ path: `/tmp/graph-${tag}-${colorScheme}-first.png` });

  // Frame rate while the layout runs in its worker (the main thread must stay free).
  const layoutFps = await page.evaluate(
    () =>
      new Promise((resolve) => {
        let frames = 0;
        const renders0 = window.__renders;
        const t0 = performance.now();
        const tick = () => {
          frames++;
          if (performance.now() - t0 < 2000) requestAnimationFrame(tick);
          else {
            const s = (performance.now() - t0) / 1000;
            resolve({ raf: frames / s, renders: (window.__renders - renders0) / s });
          }
        };
        requestAnimationFrame(tick);
      }),
  );
  await settle(page);
  const settledAfter = Date.now() - navStart;
  const overview = await viewAttrs(page);
  log(`${colorScheme}: settled after ${settledAfter} ms: level ${overview.level}, ${overview['drawn-clusters']} clusters, ${overview['drawn-nodes']} nodes drawn, ${overview.labels} labels`);
  await page.screenshot({ path: `/tmp/graph-${tag}-${colorScheme}-overview.png` });

  const metrics = await openMetrics(page);
  const cameraFrames = await measureFrames(page, metrics, () => animateCamera(page));
  log(`${colorScheme}: camera animation: ${JSON.stringify(cameraFrames)}`);
  await settle(page);
  const inputFrames = await measureFrames(page, metrics, () => wheelAndDrag(page, FIRST_ONLY ? 3000 : 5000));
  log(`${colorScheme}: wheel and drag: ${JSON.stringify(inputFrames)}`);
  await settle(page);

  // Panning and zooming a little over the detail: zoomed in to the sections, once they are all in.
  await page.evaluate(() => window.__graph.sigma.getCamera().setState({ x: 0.5, y: 0.5, ratio: 0.1, angle: 0 }));
  await page.waitForTimeout(300); // pacing
  await settle(page);
  const detailView = await page.evaluate(() => ({ nodes: window.__graph.scene.view.order, edges: window.__graph.scene.view.size }));
  const detailFrames = await measureFrames(page, metrics, () => panOverDetail(page, FIRST_ONLY ? 3000 : 5000));
  log(`${colorScheme}: pan over detail (${detailView.nodes} nodes, ${detailView.edges} edges in the renderer): ${JSON.stringify(detailFrames)}`);
  await page.evaluate(() => window.__graph.sigma.getCamera().setState({ x: 0.5, y: 0.5, ratio: 1, angle: 0 }));
  await settle(page);

  const result = {
    colorScheme,
    nodes: Number(overview.nodes),
    edges: Number(overview.edges),
    clusters: Number(overview.clusters),
    msToSyntheticData: round(first.data),
    msToFirstRender: round(first.firstRender),
    msToFirstUsefulPicture: round(first.firstPicture),
    msFirstUsefulPictureAfterData: round(first.firstPictureAfterData),
    msWallToFirstUsefulPicture: wallFirstPicture,
    firstPicture: { level: atFirst.level, clusters: Number(atFirst['drawn-clusters']), nodes: Number(atFirst['drawn-nodes']) },
    msWallToSettled: settledAfter,
    fpsDuringLayout: { raf: round(layoutFps.raf), sigmaRenders: round(layoutFps.renders) },
    overview: { level: overview.level, clusters: Number(overview['drawn-clusters']), nodes: Number(overview['drawn-nodes']), labels: Number(overview.labels) },
    pageWorkPerFrameCamera: cameraFrames,
    pageWorkPerFrameWheelDrag: inputFrames,
    pageWorkPerFramePanOverDetail: { inRenderer: detailView, ...detailFrames },
    errors,
  };
  if (FIRST_ONLY) {
    await metrics.close();
    await context.close();
    return result;
  }

  // The levels, each in a screenshot, with the labels they place.
  const levels = {};
  for (const [name, ratio] of [
    ['concepts', 0.32],
    ['sections', 0.1],
  ]) {
    await page.evaluate((r) => window.__graph.sigma.getCamera().setState({ x: 0.5, y: 0.5, ratio: r, angle: 0 }), ratio);
    await page.waitForTimeout(300); // pacing
    await settle(page);
    const a = await viewAttrs(page);
    levels[name] = { ratio, level: a.level, nodes: Number(a['drawn-nodes']), labels: Number(a.labels), forcedLabelOverlaps: (await page.evaluate(() => window.__graph.labels().overlaps)) };
    await page.screenshot({ path: `/tmp/graph-${tag}-${colorScheme}-${name}.png` });
  }
  await page.evaluate(() => window.__graph.sigma.getCamera().setState({ x: 0.5, y: 0.5, ratio: 1, angle: 0 }));
  await settle(page);

  // Restyling (a selection, a query) re-runs the reducers over every node and edge.
  const restyleMs = await page.evaluate(() => {
    const { sigma } = window.__graph;
    const times = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      sigma.refresh({ skipIndexation: true });
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return times[2];
  });

  // Hover and select response: from the input event to the first frame after it, at the concepts' level.
  await page.evaluate(() => window.__graph.sigma.getCamera().setState({ x: 0.5, y: 0.5, ratio: 0.32, angle: 0 }));
  await settle(page);
  const stage = await page.locator('[data-testid=graph-view] .canvas').boundingBox();
  const targets = await page.evaluate(() => {
    const { sigma, graph, scene } = window.__graph;
    const { width, height } = sigma.getDimensions();
    const out = [];
    let i = 0;
    graph.forEachNode((id, a) => {
      if (a.kind !== 'concept' || !scene.isDrawn(id) || i++ % 7 !== 0 || out.length >= 8) return;
      const p = sigma.graphToViewport({ x: a.x, y: a.y });
      if (p.x > 40 && p.y > 40 && p.x < width - 40 && p.y < height - 40) out.push({ id, x: p.x, y: p.y });
    });
    return out;
  });
  log(`${colorScheme}: hover and select over ${targets.length} nodes`);
  let lat = { hover: [], select: [], hoverJs: [] };
  let selectedLabel = null;
  if (targets.length) {
    await page.evaluate(() => {
      const { sigma } = window.__graph;
      window.__lat = { hover: [], select: [], hoverJs: [] };
      const pending = { hover: null, select: null };
      const box = document.querySelector('[data-testid=graph-view] .canvas');
      box.addEventListener('mousemove', (e) => (pending.move = e.timeStamp), true);
      box.addEventListener('click', (e) => (pending.click = e.timeStamp), true);
      let enterStart = 0;
      sigma.prependListener('enterNode', () => (enterStart = performance.now()));
      sigma.on('enterNode', () => window.__lat.hoverJs.push(performance.now() - enterStart));
      sigma.on('enterNode', () => (pending.hover = pending.move));
      sigma.on('clickNode', () => (pending.select = pending.click));
      sigma.on('afterRender', () => {
        const now = performance.now();
        if (pending.hover !== null) {
          window.__lat.hover.push(now - pending.hover);
          pending.hover = null;
        }
        if (pending.select !== null && document.querySelector('[data-testid=node-label]')) {
          window.__lat.select.push(now - pending.select);
          pending.select = null;
        }
      });
    });
    for (const t of targets) {
      await page.mouse.move(stage.x + 5, stage.y + 5);
      await page.waitForTimeout(150); // pacing
      await page.mouse.move(stage.x + t.x, stage.y + t.y);
      await page.waitForTimeout(300); // pacing
    }
    for (const t of targets.slice(0, 4)) {
      await page.evaluate(() => window.__graph.sigma.getCamera().setState({ x: 0.5, y: 0.5, ratio: 0.32, angle: 0 }));
      await page.waitForTimeout(300); // pacing
      await page.mouse.click(stage.x + t.x, stage.y + t.y);
      await page.waitForTimeout(900); // pacing
    }
    lat = await page.evaluate(() => window.__lat);
    selectedLabel = await page.evaluate(() => document.querySelector('[data-testid=node-label]')?.textContent ?? null);
  }
  await page.mouse.move(5, 5);
  await page.evaluate((id) => window.__select(id), targets[0]?.id ?? null);
  await page.waitForTimeout(1200); // pacing
  await settle(page);
  await page.screenshot({ path: `/tmp/graph-${tag}-${colorScheme}-selected.png` });
  await page.evaluate(() => window.__select(null));

  // After a query, then its focused view, a ring at a time.
  await page.evaluate(() => window.__setQuery(true));
  await page.evaluate(() => window.__graph.sigma.getCamera().setState({ x: 0.5, y: 0.5, ratio: 1, angle: 0 }));
  await settle(page);
  const querySummary = await page.evaluate(() => {
    const el = document.querySelector('[data-testid=graph-query-summary]');
    return el ? Object.fromEntries([...el.attributes].filter((a) => a.name.startsWith('data-hop') || a.name === 'data-loaded' || a.name === 'data-relevant').map((a) => [a.name.slice(5), Number(a.value)])) : null;
  });
  await page.screenshot({ path: `/tmp/graph-${tag}-${colorScheme}-query.png` });
  await page.click('[data-testid=graph-focus]');
  await page.waitForTimeout(900); // pacing: the camera fits the rings
  await settle(page);
  const rings = await page.evaluate(() => {
    const el = document.querySelector('[data-testid=graph-rings]');
    return el ? { step: Number(el.dataset.step), max: Number(el.dataset.max), shown: Number(el.dataset.shown) } : null;
  });
  const focusDrawn = Number((await viewAttrs(page))['drawn-nodes']);
  await page.screenshot({ path: `/tmp/graph-${tag}-${colorScheme}-focus.png` });

  await metrics.close();
  await context.close();
  return {
    ...result,
    levels,
    restyleMs: round(restyleMs),
    hoverMs: { median: round(median(lat.hover)), samples: lat.hover.length, max: round(Math.max(...lat.hover)) },
    hoverJsMs: { median: round(median(lat.hoverJs), 2), max: round(Math.max(...lat.hoverJs), 2) },
    selectMs: { median: round(median(lat.select)), samples: lat.select.length, max: round(Math.max(...lat.select)) },
    selectedLabel,
    querySummary,
    focus: { ...rings, drawnNodes: focusDrawn },
  };
}

try {
  const results = [];
  for (const scheme of SCHEMES) results.push(await run(scheme));
  console.log(JSON.stringify({ chromium: browser.version(), nodes: NODES, edges: EDGES, clusters: CLUSTERS, results }, null, 2));
} finally {
  await browser.close();
  server.close();
}
