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
// and sees the loaded set change, and copies the prompt. Then the graph at
// library scale (graphChecks below): the clusters the engine found, drawn
// as super-nodes and expanded, the question's focused view a ring at a
// time, filters that restrict the graph and the document list, and the
// node details beside the graph's controls, not over them. Prints "N
// passed, M failed" and exits non-zero on a failure.
//
//   LOOM_E2E_MIN_CLUSTERS  clusters the fixture library must have (default 2):
//                          needs the engine's community detection; 0 skips it
import { chromium } from 'playwright-core';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checks } from './checks.mjs';

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

const minClusters = Number(process.env.LOOM_E2E_MIN_CLUSTERS ?? 2);

const { check, fail, done } = checks('e2e');

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
  // Before a question, the context pane says what it will show and, below
  // it (never over it), the workspace panel.
  await page.locator('[data-testid="workspace-stats"]').waitFor({ timeout: 30_000 });
  const hint = await page.locator('[data-testid="results-empty"]').boundingBox();
  const stats = await page.locator('[data-testid="workspace-stats"]').boundingBox();
  check(
    'the workspace panel starts below the hint of what a question shows',
    hint !== null && stats !== null && hint.height > 0 && stats.y >= hint.y + hint.height - 1,
    `hint ${JSON.stringify(hint)} · panel ${JSON.stringify(stats)}`,
  );
  await page.fill('[data-testid="query-input"]', 'How is the loadable token budget calculated from the context window?');
  await page.click('[data-testid="query-submit"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="manifest"]')?.textContent?.includes('[Context loaded:'), null, {
    timeout: 30_000,
  });
  const sampleManifest = (await page.locator('.manifest-view').textContent()) ?? '';
  check('a question about the sample loads its note on context windows', /context-windows\.md/.test(sampleManifest), sampleManifest.slice(0, 300));
  await page.waitForSelector('[data-testid="graph-view"][data-settled="yes"]', { timeout: 60_000 });
  await page.screenshot({ path: join(out, 'sample.png') });

  // The desktop app with the full encoder's weights: the new workspace took
  // the sample on the offline table, and the full encoder re-embeds it in
  // the background, then takes over (bind/upgrade.go).
  const desktopStats = () => page.evaluate(async () => (window.go?.bind?.App?.Stats ? await window.go.bind.App.Stats() : null));
  const first = await desktopStats();
  if (first?.full_encoder) {
    // Waits on the engine's events: listening first, then asking, so the
    // end cannot slip between the two; a background re-embed that stopped
    // for something else (canceled) starts again and is waited for too.
    const after = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const app = window.go.bind.App;
          let settled = false;
          const settle = async () => {
            if (settled) return;
            settled = true;
            off();
            resolve(await app.Stats());
          };
          const off = window.runtime.EventsOn('reembed:progress', (p) => {
            if (p.automatic && p.finished && !p.canceled) void settle();
          });
          void app.Stats().then((s) => {
            if (s.embedder?.startsWith('minilm/')) void settle();
          });
        }),
    );
    check(
      'the desktop app started the sample on the table and the full encoder took over in the background',
      after?.embedder?.startsWith('minilm/') && /re-embedded with it/.test(after?.embedder_choice ?? ''),
      `${first.embedder} → ${after?.embedder} (${after?.embedder_choice})`,
    );
  }

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
  // The desktop app on the full encoder writes a drop of more than four
  // files in rounds: the engine's events say the first four are in the
  // library before the ingest ends (backend/library/ingest.go, rounds).
  const rounds = Boolean(first?.full_encoder) && files.length > 4;
  if (rounds) {
    await page.evaluate(() => {
      window.__ingestEvents = [];
      window.runtime.EventsOn('ingest:progress', (p) => window.__ingestEvents.push({ written: p.written ?? 0, finished: p.finished, total: p.files_total }));
    });
  }
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
  if (rounds) {
    await page.waitForFunction(() => window.__ingestEvents.some((e) => e.finished), null, { timeout: 60_000 });
    const events = await page.evaluate(() => window.__ingestEvents);
    const end = events.findIndex((e) => e.finished);
    check(
      'a drop of more than four files on the full encoder is written in rounds: the first four are in the library before it ends',
      events.slice(0, end).some((e) => e.written === 4 && e.total === files.length),
      JSON.stringify(events.map((e) => `${e.written}${e.finished ? ' end' : ''}`)),
    );
  }

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

  // A budget far above the 4,096 tokens relevance is judged at: the same relevant nodes, and what is near
  // the question after them, counted apart in the summary and the manifest.
  if (await budgetInput.count()) {
    await budgetInput.fill('16000');
    await page.click('[data-testid="query-submit"]');
    await page
      .waitForFunction(() => document.querySelector('[data-testid="query-near"]') !== null, null, { timeout: 30_000 })
      .catch(() => {});
    const near = (await page.locator('[data-testid="query-near"]').textContent().catch(() => '')) ?? '';
    const wide = (await manifest.textContent()) ?? '';
    check('a budget above 4,096 tokens also loads what is near the question', /^\d+ near the question$/.test(near.trim()), near);
    check('the manifest counts what is near the question apart', wide.includes(`; and ${near.trim()}, as the budget allowed]`), wide.slice(0, 160));
    const nearTitle = (await page.locator('[data-testid="query-near"]').getAttribute('title').catch(() => '')) ?? '';
    check('its tooltip names the budget the engine judges relevance at', nearTitle.startsWith('Beyond 4,096 tokens '), nearTitle);
    await page.screenshot({ path: join(out, 'near.png') });
    await budgetInput.fill('2000');
    await page.click('[data-testid="query-submit"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="query-near"]') === null, null, { timeout: 30_000 }).catch(() => {});
  }

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
  await graphChecks(page);
  check('no uncaught page errors', errors.length === 0, errors.join(' | '));
} catch (e) {
  fail(e instanceof Error ? (e.stack ?? e.message) : e);
  await page.screenshot({ path: join(out, 'failure.png') }).catch(() => {});
} finally {
  await browser.close();
}
done(` (screenshots in ${out})`);

/** The graph view's data-* attributes, as numbers where they are. */
async function graphState(page) {
  return page.evaluate(() => {
    const el = document.querySelector('[data-testid="graph-view"]');
    const out = {};
    for (const a of el.attributes) {
      if (!a.name.startsWith('data-') || a.name === 'data-testid') continue;
      const k = a.name.slice(5).replace(/-(\w)/g, (_, c) => c.toUpperCase());
      out[k] = a.value !== '' && !Number.isNaN(Number(a.value)) ? Number(a.value) : a.value;
    }
    return out;
  });
}

/** Waits for the graph to settle (layout done, restyling done, a frame drawn). */
async function settled(page) {
  await page.waitForSelector('[data-testid="graph-view"][data-settled="yes"]', { timeout: 60_000 });
}

/**
 * The graph at library scale, on the library the checks above built (the
 * sample, the fixture notes, README.md and BENCHMARKS.md) with the last
 * question's answer on screen.
 */
async function graphChecks(page) {
  // The graph alone in the middle: the stage the levels of detail are for.
  await page.getByRole('button', { name: 'Graph', exact: true }).click();
  await settled(page);
  let g = await graphState(page);
  const concepts = Number(((await page.locator('[data-testid="library-stat-concepts"]').textContent()) ?? '0').replace(/[^\d]/g, ''));

  // Clusters: what the engine sent (the bridge's Graph result, data-clusters) is what the page lists and draws.
  let engineClusters = g.clusters;
  const fromBridge = await page.evaluate(async () => {
    const app = window.go?.bind?.App;
    if (!app?.Graph) return null; // the web edition's engine is in a worker: data-clusters is its answer
    const graph = await app.Graph();
    return graph.clusters.length;
  });
  if (fromBridge !== null) {
    check('the page counts the clusters the engine’s Graph returns', fromBridge === g.clusters, `Graph: ${fromBridge}, data-clusters: ${g.clusters}`);
    engineClusters = fromBridge;
  }
  // NEEDS THE ENGINE'S COMMUNITY DETECTION (branch h-clus): until GraphData.clusters is
  // filled in, the engine sends none and this check fails. LOOM_E2E_MIN_CLUSTERS=0 skips it.
  if (minClusters > 0)
    check(
      `a library of ${concepts} concepts has at least ${minClusters} clusters [needs the engine's clustering]`,
      engineClusters >= minClusters,
      `data-clusters=${g.clusters} (concepts ${concepts})`,
    );
  await page.click('[data-testid="graph-filters-toggle"]');
  const listed = await page.locator('[data-testid="graph-cluster"]').count();
  check('the filters list every cluster the engine sent', listed === g.clusters, `listed ${listed}, data-clusters ${g.clusters}`);

  // Zoomed out as far as the whole graph, with the least detail: a library with clusters shows them as super-nodes.
  await page.locator('[data-testid="graph-detail"]').fill('0');
  await page.getByRole('button', { name: 'Fit all' }).click();
  await settled(page); // not before the camera's animation has ended
  g = await graphState(page);
  if (g.clusters > 0) {
    check('zoomed out, the clusters are drawn as super-nodes', g.level === 0 ? g.drawnClusters === g.clusters : g.drawnClusters === 0, JSON.stringify(g));
    await page.screenshot({ path: join(out, 'graph-clusters.png') });
    // Expand the first cluster from the list (collapsing it by hand first if the zoom shows its
    // concepts already), then collapse it again.
    const first = page.locator('[data-testid="graph-cluster"]').first();
    const id = await first.getAttribute('data-id');
    const toggle = first.locator('[data-testid="graph-cluster-toggle"]');
    if ((await first.getAttribute('data-mode')) !== 'collapsed') {
      await toggle.click();
      await settled(page);
      g = await graphState(page);
      check('a cluster collapses into its super-node', (await first.getAttribute('data-mode')) === 'collapsed' && g.drawnClusters >= 1, JSON.stringify(g));
    }
    const before = await graphState(page);
    // The camera then goes to the cluster's members; zoomed in that far, other clusters in sight may open too.
    await toggle.click();
    await settled(page);
    g = await graphState(page);
    const card = page.locator('[data-testid="graph-cluster-card"]');
    check(
      'a cluster expands: its members are drawn and its card opens',
      g.expanded === 1 && (await card.getAttribute('data-id')) === id && (await first.getAttribute('data-mode')) === 'full' && g.drawnNodes > before.drawnNodes && g.drawnClusters <= before.drawnClusters - 1,
      `drawn ${before.drawnNodes} → ${g.drawnNodes}, clusters ${before.drawnClusters} → ${g.drawnClusters}, expanded ${g.expanded}`,
    );
    await page.screenshot({ path: join(out, 'graph-expanded.png') });
    await page.click('[data-testid="graph-cluster-card-toggle"]');
    await settled(page);
    check('and collapses again', (await first.getAttribute('data-mode')) === 'collapsed', await first.getAttribute('data-mode'));
    await page.click('[data-testid="graph-clusters-reset"]');
  } else {
    check('without clusters the graph draws its nodes, and no super-node', g.drawnClusters === 0 && g.drawnNodes > 0, JSON.stringify(g));
  }
  await page.locator('[data-testid="graph-detail"]').fill('0.5');

  // Filters that filter: node kinds, collections (and the document list), the search.
  await settled(page);
  g = await graphState(page);
  await page.click('[data-testid="graph-filter-kind-concept"]');
  let h = await graphState(page);
  check('unticking concepts takes them out of the graph', h.drawnConcepts === 0 && h.visible < g.visible, `visible ${g.visible} → ${h.visible}, concepts drawn ${h.drawnConcepts}`);
  await page.click('[data-testid="graph-filter-kind-concept"]');
  const sampleChip = page.locator('[data-testid="graph-filter-collection"][data-name="sample"]');
  await sampleChip.click();
  h = await graphState(page);
  const listedDocs = await page.locator('[data-testid="document-list"] [data-testid="document-item"]').count();
  const sampleDocs = await page.locator('[data-testid="document-group"][data-collection="sample"] [data-testid="document-item"]').count();
  check(
    'a collection narrows the graph and the document list to it',
    h.visible < g.visible && listedDocs === sampleDocs && listedDocs > 0 && (await page.locator('[data-testid="document-list-filtered"]').count()) === 1,
    `visible ${g.visible} → ${h.visible}, documents listed ${listedDocs} (sample: ${sampleDocs})`,
  );
  await sampleChip.click();
  await page.fill('[data-testid="graph-search"]', 'budget');
  h = await graphState(page);
  check('the search shows only what matches', h.matches > 0 && h.visible === h.matches, `matches ${h.matches}, visible ${h.visible}`);
  await page.fill('[data-testid="graph-search"]', '');
  await page.click('[data-testid="graph-filter-edge-about"]');
  check('edge kinds toggle', !(await page.locator('[data-testid="graph-filter-edge-about"]').isChecked()));
  await page.click('[data-testid="graph-filter-edge-about"]');

  // The question's focused view: only its neighbourhood, a ring at a time.
  const focus = page.locator('[data-testid="graph-focus"]');
  await focus.click();
  await settled(page);
  const rings = page.locator('[data-testid="graph-rings"]');
  g = await graphState(page);
  const max = Number(await rings.getAttribute('data-max'));
  const shown = Number(await rings.getAttribute('data-shown'));
  check('focused on the question: its seeds, what it loaded or found relevant and the paths to them, the rest hidden', g.focus === 'on' && g.drawnNodes === shown && shown > 0 && g.drawnNodes < g.nodes && g.drawnClusters === 0, `shown ${shown} of ${g.nodes}, rings 0–${max}`);
  await page.screenshot({ path: join(out, 'graph-focus.png') });
  await page.click('[data-testid="graph-ring-first"]');
  await settled(page);
  const seeds = (await graphState(page)).drawnNodes;
  let stepOk = Number(await rings.getAttribute('data-step')) === 0 && seeds > 0;
  let last = seeds;
  for (let ring = 1; ring <= max; ring++) {
    await page.click('[data-testid="graph-ring-next"]');
    await settled(page);
    const now = (await graphState(page)).drawnNodes;
    stepOk &&= Number(await rings.getAttribute('data-step')) === ring && now >= last;
    last = now;
  }
  check('the rings come one at a time, from the seeds out', stepOk && last === shown, `seeds ${seeds}, then up to ${last} of ${shown}`);
  await focus.click();

  // The node details sit beside the graph: its controls stay where they are, and answer.
  await page.getByRole('button', { name: 'Split', exact: true }).click();
  await page.locator('[data-testid="candidate-row"]').first().click();
  const panel = page.locator('[data-testid="details-panel"]');
  await panel.waitFor({ timeout: 15_000 });
  const p = await panel.boundingBox();
  const controls = ['graph-filters-toggle', 'graph-search', 'graph-label-density', 'graph-filter-kind-concept', 'graph-focus'];
  const covered = [];
  for (const id of controls) {
    const loc = page.locator(`[data-testid="${id}"]`);
    if (!(await loc.count())) continue;
    const b = await loc.boundingBox();
    if (!b) continue;
    const overlap = b.x < p.x + p.width && b.x + b.width > p.x && b.y < p.y + p.height && b.y + b.height > p.y;
    const onTop = await loc.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return hit === el || el.contains(hit) || hit?.contains(el);
    });
    if (overlap || !onTop) covered.push(id);
  }
  check('with a node selected, no graph control lies under the details panel', covered.length === 0, covered.join(', '));
  g = await graphState(page);
  await page.click('[data-testid="graph-filter-kind-concept"]');
  h = await graphState(page);
  check('and the filters still answer', h.visible < g.visible, `visible ${g.visible} → ${h.visible}`);
  await page.click('[data-testid="graph-filter-kind-concept"]');
  await page.screenshot({ path: join(out, 'graph-details.png') });
  await page.keyboard.press('Escape');
}
