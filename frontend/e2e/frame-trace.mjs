// The page's own work per frame, from a Chromium trace: script, style and
// layout on the page's main thread, frame by frame, while something (a pan,
// a zoom) runs. Used by graph-perf.mjs (the benchmark) and graph.e2e.mjs.
//
// A frame is the time from one animation frame callback (sigma draws in
// requestAnimationFrame) to the next; the work counted in it is the union of
// the main thread's script (event handlers, timers, animation frame
// callbacks, microtasks, garbage collection), style recalculation and layout
// events in that time. Work the GPU process does (WebGL rasterised by
// SwiftShader, compositing) is not the page's and is not counted; a WebGL
// call that waits for it (readPixels) is, since it blocks the page.

const SCRIPT = new Set([
  'FireAnimationFrame',
  'FunctionCall',
  'EvaluateScript',
  'TimerFire',
  'EventDispatch',
  'RunMicrotasks',
  'V8.Execute',
  'v8.run',
  'MinorGC',
  'MajorGC',
  'V8.GC_SCAVENGER',
  'V8.GC_MARK_COMPACTOR',
  'ScheduleStyleRecalculation',
  'FireIdleCallback',
  'XHRLoad',
]);
const STYLE = new Set(['UpdateLayoutTree', 'RecalculateStyles', 'ParseAuthorStyleSheet']);
const LAYOUT = new Set(['Layout', 'PrePaint', 'UpdateLayerTree']);

/** Starts a trace on the page (a CDP session of its own); returns stop(), which resolves to the events. */
export async function startTrace(page) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', {
    traceConfig: {
      recordMode: 'recordAsMuchAsPossible',
      includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'toplevel', '__metadata'],
    },
    transferMode: 'ReportEvents',
  });
  return async () => {
    await cdp.send('Tracing.end');
    await done;
    await cdp.detach();
    return events;
  };
}

/** The renderer main thread that ran the most animation frames (the page's). */
function mainThread(events) {
  const names = new Map();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain') names.set(`${e.pid}:${e.tid}`, true);
  }
  const count = new Map();
  for (const e of events) {
    if (e.name !== 'FireAnimationFrame') continue;
    const k = `${e.pid}:${e.tid}`;
    if (names.size && !names.has(k)) continue;
    count.set(k, (count.get(k) ?? 0) + 1);
  }
  let best = null;
  let n = -1;
  for (const [k, c] of count) if (c > n) [best, n] = [k, c];
  return best;
}

/** Union length of intervals [a, b) clipped to [lo, hi). */
function unionIn(intervals, lo, hi) {
  let total = 0;
  let end = lo;
  for (const [a, b] of intervals) {
    if (b <= lo) continue;
    if (a >= hi) break;
    const s = Math.max(a, end, lo);
    const t = Math.min(b, hi);
    if (t > s) {
      total += t - s;
      end = t;
    }
  }
  return total;
}

const pct = (xs, p) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))];
};
const r2 = (x) => (x === null ? null : Math.round(x * 100) / 100);

/**
 * Per-frame work of the page's main thread, in ms: { frames, work: {median,
 * p95, max, mean}, script, style, layout (medians), worst: the worst frame's
 * split }. Frames before `from` and after `to` (performance.now() clock is
 * not the trace's; pass trace microseconds or leave out) are ignored.
 */
export function framesFromTrace(events) {
  const key = mainThread(events);
  if (!key) return null;
  const [pid, tid] = key.split(':').map(Number);
  const own = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && typeof e.dur === 'number');
  const frames = own
    .filter((e) => e.name === 'FireAnimationFrame')
    .map((e) => e.ts)
    .sort((a, b) => a - b);
  const kinds = { script: SCRIPT, style: STYLE, layout: LAYOUT };
  const iv = {};
  const all = [];
  for (const [k, set] of Object.entries(kinds)) {
    iv[k] = own
      .filter((e) => set.has(e.name))
      .map((e) => [e.ts, e.ts + e.dur])
      .sort((a, b) => a[0] - b[0]);
    all.push(...iv[k]);
  }
  all.sort((a, b) => a[0] - b[0]);
  const per = [];
  for (let i = 0; i + 1 < frames.length; i++) {
    const lo = frames[i];
    const hi = frames[i + 1];
    per.push({
      work: unionIn(all, lo, hi) / 1000,
      script: unionIn(iv.script, lo, hi) / 1000,
      style: unionIn(iv.style, lo, hi) / 1000,
      layout: unionIn(iv.layout, lo, hi) / 1000,
      gap: (hi - lo) / 1000,
    });
  }
  if (!per.length) return { frames: 0 };
  const work = per.map((f) => f.work);
  const worst = per.reduce((a, b) => (b.work > a.work ? b : a));
  if (process.env.LOOM_TRACE_DEBUG) {
    // The worst frames' longest events, to see what they were.
    const ranked = per.map((f, i) => ({ ...f, i })).sort((a, b) => b.work - a.work).slice(0, 3);
    for (const f of ranked) {
      const lo = frames[f.i];
      const hi = frames[f.i + 1];
      const evs = own
        .filter((e) => e.ts >= lo && e.ts < hi && e.dur > 2000)
        .sort((a, b) => b.dur - a.dur)
        .slice(0, 8)
        .map((e) => `${e.name}(${(e.dur / 1000).toFixed(1)}ms ${e.args?.data?.functionName ?? e.args?.data?.type ?? ''} ${(e.args?.data?.url ?? '').split('/').pop()}:${e.args?.data?.lineNumber ?? ''})`);
      process.stderr.write(`frame-trace: worst frame ${f.work.toFixed(1)} ms: ${evs.join(', ')}\n`);
    }
  }
  return {
    frames: per.length,
    work: {
      median: r2(pct(work, 0.5)),
      p95: r2(pct(work, 0.95)),
      max: r2(Math.max(...work)),
      mean: r2(work.reduce((a, b) => a + b, 0) / work.length),
    },
    medians: { script: r2(pct(per.map((f) => f.script), 0.5)), style: r2(pct(per.map((f) => f.style), 0.5)), layout: r2(pct(per.map((f) => f.layout), 0.5)) },
    worst: { work: r2(worst.work), script: r2(worst.script), style: r2(worst.style), layout: r2(worst.layout) },
    overBudget: per.filter((f) => f.work > 16).length,
    frameGapMs: { median: r2(pct(per.map((f) => f.gap), 0.5)), p95: r2(pct(per.map((f) => f.gap), 0.95)) },
  };
}

/**
 * Performance.getMetrics on a session of its own: read() gives the totals
 * (ms) of script, style and layout so far, for deltas over a stretch.
 */
export async function openMetrics(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  return {
    async read() {
      const { metrics: m } = await cdp.send('Performance.getMetrics');
      const get = (name) => (m.find((x) => x.name === name)?.value ?? 0) * 1000;
      return { script: get('ScriptDuration'), style: get('RecalcStyleDuration'), layout: get('LayoutDuration'), task: get('TaskDuration') };
    },
    close: () => cdp.detach(),
  };
}
