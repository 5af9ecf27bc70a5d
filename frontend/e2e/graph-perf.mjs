#!/usr/bin/env node
// Graph view in a real browser: builds e2e/graph-harness (GraphView over a
// synthetic 10,000-node / 40,000-edge graph), serves it, and measures time
// to first render, frames per second while the camera moves, and hover and
// select response, in the light and the dark theme. Prints JSON; screenshots
// go to /tmp/graph-10k.png (light), /tmp/graph-10k-dark.png and
// /tmp/graph-10k-query*.png (after a query).
//
//   node e2e/graph-perf.mjs [--nodes 10000] [--edges 40000] [--chromium /usr/bin/chromium] [--no-build]
//
// Not part of `npm test` or `make test`: a benchmark, not a test. Its
// waitForTimeout calls (each marked "pacing") space the pointer's moves and
// let camera animations end between measurements; no check depends on them.
// With --disable-gpu Chromium draws WebGL in software (SwiftShader), so the
// frame rates are a floor, not what a GPU does.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { chromium } from 'playwright-core';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const NODES = Number(opt('nodes', 10000));
const EDGES = Number(opt('edges', 40000));
const CHROMIUM = opt('chromium', process.env.CHROMIUM ?? '/usr/bin/chromium');
const OUT = process.env.LOOM_GRAPH_HARNESS_OUT ?? '/tmp/loom-graph-harness';
const here = fileURLToPath(new URL('.', import.meta.url));

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
const round = (x, d = 1) => (x === null || x === undefined ? null : Math.round(x * 10 ** d) / 10 ** d);

async function run(colorScheme) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));

  const navStart = Date.now();
  await page.goto(`${base}?n=${NODES}&m=${EDGES}`);
  const webgl = await page.evaluate(() => document.querySelector('[data-testid=graph-view]')?.getAttribute('data-webgl'));
  if (webgl !== 'yes') throw new Error(`no WebGL in this Chromium (data-webgl=${webgl}); errors: ${errors.join('; ')}`);
  await page.waitForFunction(() => window.__tFirstRender !== undefined, null, { timeout: 60000 });
  const first = await page.evaluate(() => ({
    data: window.__tData - window.__t0,
    firstRender: window.__tFirstRender - window.__t0,
    nodes: Number(document.querySelector('[data-testid=graph-view]').dataset.nodes),
    edges: Number(document.querySelector('[data-testid=graph-view]').dataset.edges),
  }));
  const wallFirstRender = Date.now() - navStart;
  log(`${colorScheme}: first render after ${wallFirstRender} ms`);

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
  const tLayout0 = Date.now();
  await page.waitForFunction(() => document.querySelector('[data-testid=graph-view]')?.dataset.state === 'ready', null, {
    timeout: 60000,
  });
  const layoutDoneAfter = Date.now() - navStart;
  void tLayout0;
  await page.waitForSelector('[data-testid=graph-view][data-settled=yes]', { timeout: 60000 });

  const shot = colorScheme === 'light' ? '/tmp/graph-10k.png' : `/tmp/graph-10k-${colorScheme}.png`;
  await page.screenshot({ path: shot });

  log(`${colorScheme}: layout done after ${layoutDoneAfter} ms`);
  // Camera animated programmatically: pan and zoom for ~3 s, counting frames.
  const cameraFps = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const sigma = window.__graph.sigma;
        const camera = sigma.getCamera();
        const renders0 = window.__renders;
        const js = [];
        let begun = 0;
        const before = () => (begun = performance.now());
        const after = () => js.push(performance.now() - begun);
        sigma.on('beforeRender', before);
        sigma.on('afterRender', after);
        let frames = 0;
        const gaps = [];
        let last = performance.now();
        const t0 = last;
        const steps = [
          { x: 0.3, y: 0.3, ratio: 0.4 },
          { x: 0.7, y: 0.6, ratio: 0.25 },
          { x: 0.5, y: 0.5, ratio: 1.2 },
          { x: 0.4, y: 0.7, ratio: 0.6 },
          { x: 0.5, y: 0.5, ratio: 1 },
        ];
        let i = 0;
        const next = () => {
          if (i < steps.length) camera.animate(steps[i++], { duration: 600 }).then(next);
        };
        next();
        const tick = (now) => {
          frames++;
          gaps.push(now - last);
          last = now;
          if (now - t0 < 3000) requestAnimationFrame(tick);
          else {
            const s = (now - t0) / 1000;
            gaps.sort((a, b) => a - b);
            sigma.off('beforeRender', before);
            sigma.off('afterRender', after);
            js.sort((a, b) => a - b);
            resolve({
              jsPerRenderMsMedian: js[js.length >> 1],
              jsPerRenderMsMax: js[js.length - 1],
              raf: frames / s,
              renders: (window.__renders - renders0) / s,
              worstFrameMs: gaps[gaps.length - 1],
              p95FrameMs: gaps[Math.floor(gaps.length * 0.95)],
            });
          }
        };
        requestAnimationFrame(tick);
      }),
  );

  log(`${colorScheme}: camera animation ${JSON.stringify(cameraFps)}`);
  // Real input: wheel zoom and mouse drag for ~3 s.
  const stage = await page.locator('[data-testid=graph-view] .canvas').boundingBox();
  const cx = stage.x + stage.width / 2;
  const cy = stage.y + stage.height / 2;
  await page.evaluate(() => {
    window.__inputFrames = 0;
    window.__inputRenders0 = window.__renders;
    window.__inputT0 = performance.now();
    window.__inputRun = true;
    const tick = () => {
      window.__inputFrames++;
      if (window.__inputRun) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const tInput = Date.now();
  await page.mouse.move(cx, cy);
  while (Date.now() - tInput < 3000) {
    await page.mouse.wheel(0, -120);
    await page.mouse.down();
    for (let k = 0; k < 8; k++) await page.mouse.move(cx + 15 * k, cy + 8 * k);
    await page.mouse.up();
    await page.mouse.wheel(0, 120);
    await page.mouse.down();
    for (let k = 8; k >= 0; k--) await page.mouse.move(cx + 15 * k, cy + 8 * k);
    await page.mouse.up();
  }
  const inputFps = await page.evaluate(() => {
    window.__inputRun = false;
    const s = (performance.now() - window.__inputT0) / 1000;
    return { raf: window.__inputFrames / s, renders: (window.__renders - window.__inputRenders0) / s };
  });

  log(`${colorScheme}: wheel and drag ${JSON.stringify(inputFps)}`);
  // Restyling (hover, select, search, query) re-runs the reducers over every node and edge.
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

  // Hover and select response: from the input event to the first frame after it.
  await page.waitForTimeout(1000); // pacing: let the drag's inertia end
  await page.evaluate(() => window.__graph.sigma.getCamera().setState({ x: 0.5, y: 0.5, ratio: 1, angle: 0 }));
  await page.waitForTimeout(300); // pacing
  // Concepts spread over the stage (every 50th, inside the view).
  const targets = await page.evaluate(() => {
    const { sigma, graph } = window.__graph;
    const { width, height } = sigma.getDimensions();
    const out = [];
    let i = 0;
    graph.forEachNode((id, a) => {
      if (a.kind !== 'concept' || i++ % 50 !== 0 || out.length >= 8) return;
      const p = sigma.graphToViewport({ x: a.x, y: a.y });
      if (p.x > 40 && p.y > 40 && p.x < width - 40 && p.y < height - 40) out.push({ id, x: p.x, y: p.y });
    });
    return out;
  });
  log(`${colorScheme}: hover and select over ${targets.length} nodes`);
  if (!targets.length) throw new Error('no concept inside the view to hover');
  await page.evaluate(() => {
    const { sigma } = window.__graph;
    window.__lat = { hover: [], select: [] };
    const pending = { hover: null, select: null };
    window.__pending = pending;
    const box = document.querySelector('[data-testid=graph-view] .canvas');
    box.addEventListener('mousemove', (e) => (pending.move = e.timeStamp), true);
    box.addEventListener('click', (e) => (pending.click = e.timeStamp), true);
    // JS cost of a hover inside the page (GraphView's handler: restyle and
    // repaint of the neighbourhood), apart from the GPU's share.
    window.__lat.hoverJs = [];
    let enterStart = 0;
    sigma.prependListener('enterNode', () => (enterStart = performance.now()));
    sigma.on('enterNode', () => window.__lat.hoverJs.push(performance.now() - enterStart));
    sigma.on('enterNode', () => (pending.hover = pending.move));
    sigma.on('clickNode', () => (pending.select = pending.click));
    sigma.on('afterRender', () => {
      const now = performance.now();
      // The selection's highlight comes after the parent's state update; wait for it.
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
    await page.waitForTimeout(120); // pacing
    await page.mouse.move(stage.x + t.x, stage.y + t.y);
    await page.waitForTimeout(250); // pacing
  }
  for (const t of targets.slice(0, 5)) {
    await page.mouse.click(stage.x + t.x, stage.y + t.y);
    await page.waitForTimeout(700); // pacing
    await page.evaluate(() => window.__graph.sigma.getCamera().setState({ x: 0.5, y: 0.5, ratio: 1, angle: 0 }));
    await page.waitForTimeout(200); // pacing
  }
  const lat = await page.evaluate(() => window.__lat);
  const selectedLabel = await page.evaluate(() => document.querySelector('[data-testid=node-label]')?.textContent ?? null);

  // Selected node (as the parent would set it), camera on it: a screenshot of the highlight.
  await page.mouse.move(5, 5);
  await page.evaluate((id) => window.__select(id), targets[0].id);
  await page.waitForTimeout(1200); // pacing
  await page.screenshot({ path: `/tmp/graph-10k-selected-${colorScheme}.png` });
  await page.evaluate(() => window.__select(null));
  await page.mouse.move(5, 5);

  // After a query (the pointer off the stage so nothing is hovered).
  await page.mouse.move(5, 5);
  await page.evaluate(() => window.__setQuery(true));
  await page.evaluate(() => window.__graph.sigma.getCamera().setState({ x: 0.5, y: 0.5, ratio: 1, angle: 0 }));
  await page.waitForTimeout(600); // pacing
  const querySummary = await page.evaluate(() => {
    const el = document.querySelector('[data-testid=graph-query-summary]');
    return el ? Object.fromEntries([...el.attributes].filter((a) => a.name.startsWith('data-')).map((a) => [a.name, a.value])) : null;
  });
  await page.screenshot({ path: `/tmp/graph-10k-query-${colorScheme}.png` });

  await context.close();
  return {
    colorScheme,
    nodes: first.nodes,
    edges: first.edges,
    msToSyntheticData: round(first.data),
    msToFirstRender: round(first.firstRender),
    msWallToFirstRender: wallFirstRender,
    msWallToLayoutDone: layoutDoneAfter,
    fpsDuringLayout: { raf: round(layoutFps.raf), sigmaRenders: round(layoutFps.renders) },
    fpsCameraAnimation: {
      raf: round(cameraFps.raf),
      sigmaRenders: round(cameraFps.renders),
      jsPerRenderMsMedian: round(cameraFps.jsPerRenderMsMedian),
      jsPerRenderMsMax: round(cameraFps.jsPerRenderMsMax),
      p95FrameMs: round(cameraFps.p95FrameMs),
      worstFrameMs: round(cameraFps.worstFrameMs),
    },
    fpsMouseWheelDrag: { raf: round(inputFps.raf), sigmaRenders: round(inputFps.renders) },
    restyleMs: round(restyleMs),
    hoverMs: { median: round(median(lat.hover)), samples: lat.hover.length, max: round(Math.max(...lat.hover)) },
    hoverJsMs: { median: round(median(lat.hoverJs), 2), max: round(Math.max(...lat.hoverJs), 2) },
    selectMs: { median: round(median(lat.select)), samples: lat.select.length, max: round(Math.max(...lat.select)) },
    selectedLabel,
    querySummary,
    screenshot: shot,
    errors,
  };
}

try {
  const results = [];
  for (const scheme of ['light', 'dark']) results.push(await run(scheme));
  console.log(JSON.stringify({ chromium: browser.version(), results }, null, 2));
} finally {
  await browser.close();
  server.close();
}
