// Citations that lead somewhere, end to end in the web edition in Debian's
// Chromium: the engine in WebAssembly ingests the fixture notes; a question's
// candidates name their sources by cite, and one opens the source viewer at
// the cited passage; then a chat turn with a fake Ollama (NDJSON over HTTP
// with CORS, answering with the first two node ids of its context in one
// bracket) shows the answer's citations as chips labelled with their
// sources, and a click opens the viewer with that passage highlighted and
// in view. Screenshots of the viewer go to LOOM_E2E_OUT.
//
//   LOOM_E2E_URL   the web edition (required; scripts/e2e-web.sh serves build/web)
//   LOOM_E2E_OUT   screenshots (default /tmp/loom-e2e-cite)
//   LOOM_E2E_DOCS  notes to ingest (default ../../testdata/fixture/notes)
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checks } from './checks.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const url = process.env.LOOM_E2E_URL;
if (!url) {
  console.error('cite: set LOOM_E2E_URL to the web edition');
  process.exit(2);
}
const out = resolve(process.env.LOOM_E2E_OUT ?? '/tmp/loom-e2e-cite');
const docs = resolve(process.env.LOOM_E2E_DOCS ?? join(here, '../../testdata/fixture/notes'));
mkdirSync(out, { recursive: true });

const { check, fail, done } = checks('cite');

/** The hex id (prefix) a prompt's letters stand for: "hpih" → "n-8f48" (the engine's model.PromptID, one letter a digit). */
const hexOf = (letters) => 'n-' + [...letters].map((ch) => 'etaoinsrhldcumkp'.indexOf(ch).toString(16)).join('');

// A fake Ollama the page reaches from the browser: one chat model without
// tools; each answer cites the first two node ids of the context it was sent.
const model = 'llama3.2:1b';
const chats = [];
const ollama = createServer((req, res) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', '*');
  if (req.method === 'OPTIONS') return res.writeHead(204).end();
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const json = (v) => res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(v));
    const details = { format: 'gguf', family: 'llama', families: ['llama'], parameter_size: '1.2B', quantization_level: 'Q8_0' };
    if (req.method === 'GET' && req.url === '/api/tags') {
      return json({ models: [{ name: model, model, modified_at: '2026-01-02T15:04:05Z', size: 1321098329, digest: 'baf6a787fdffd633', details }] });
    }
    if (req.method === 'POST' && req.url === '/api/show') {
      return json({ capabilities: ['completion'], details, model_info: { 'general.architecture': 'llama', 'llama.context_length': 8192 } });
    }
    if (req.method === 'POST' && req.url === '/api/chat') {
      const chat = JSON.parse(body);
      chats.push(chat);
      const ids = [...chat.messages[0].content.matchAll(/^\[([a-z]{3,16})\] /gm)].map((m) => m[1]);
      const pieces = ['Concept nodes index topics, ', 'and content nodes link to them ', `[${ids.slice(0, 2).join(', ')}].`];
      res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
      for (const p of pieces) res.write(JSON.stringify({ model, created_at: '2026-01-02T15:04:05Z', message: { role: 'assistant', content: p }, done: false }) + '\n');
      return res.end(
        JSON.stringify({ model, created_at: '2026-01-02T15:04:06Z', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 600, eval_count: 20 }) + '\n',
      );
    }
    res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: `no ${req.url}` }));
  });
});
await new Promise((r) => ollama.listen(0, '127.0.0.1', r));
const ollamaURL = `http://127.0.0.1:${ollama.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.LOOM_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--enable-unsafe-swiftshader', '--use-angle=swiftshader'],
});

/** In the page: whether the highlighted passage is drawn inside the viewer's scrolling body. */
const inView = () => {
  const focus = document.querySelector('[data-testid="source-focus"]')?.getBoundingClientRect();
  const body = document.querySelector('[data-testid="source-body"]')?.getBoundingClientRect();
  return Boolean(focus && body && focus.top >= body.top - 1 && focus.top < body.bottom);
};

const errors = [];
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
  await context.addInitScript((u) => localStorage.setItem('loom.ollamaURL', u), ollamaURL);
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForSelector('[data-testid="drop-zone"]', { timeout: 90_000 });
  await page.waitForSelector('[data-testid="boot-overlay"]', { state: 'detached', timeout: 90_000 });

  // And a long note whose cited section is far down: the viewer must scroll to it.
  const long = join(out, 'long-history.md');
  const filler = (k) => `## Chapter ${k}\n\nThe weather on day ${k} was unremarkable.\nNothing else of note happened that day.\nThe log ends here.\n`;
  const chapters = Array.from({ length: 80 }, (_, k) =>
    k === 70 ? '## Zeppelin mooring masts\n\nZeppelin mooring masts were steel towers with a winch and a rotating cone at the top.\n' : filler(k),
  );
  writeFileSync(long, `# A long history\n\n${chapters.join('\n')}`);
  const files = [
    ...readdirSync(docs)
      .filter((f) => /\.(md|txt)$/.test(f))
      .map((f) => join(docs, f)),
    long,
  ];
  await page.setInputFiles('[data-testid="file-input"]', files);
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="document-item"]').length >= n, files.length, { timeout: 60_000 });

  // A question: its candidates name their sources.
  const question = 'How are concept nodes and content nodes linked?';
  await page.fill('[data-testid="query-input"]', question);
  await page.click('[data-testid="query-submit"]');
  await page.waitForSelector('[data-testid="candidate-table"] [data-testid="cite-link"]', { timeout: 30_000 });
  const chips = await page.$$eval('[data-testid="candidate-row"][data-status="loaded"] [data-testid="cite-link"]', (els) =>
    els.map((e) => ({ id: e.dataset.id, cite: e.textContent })),
  );
  check(
    'the loaded candidates are named by file and lines',
    chips.length > 0 && chips.every((c) => /^[\w-]+\.md#[\w-]+ L\d+(–\d+)?$/.test(c.cite)),
    JSON.stringify(chips),
  );
  const prompt = (await page.textContent('[data-testid="prompt"]')) ?? '';
  check(
    'the prompt names each block’s source after its (shortened) id, once',
    chips.every((c) => {
      const lines = c.cite.split(' ').pop();
      // A header may leave out the title its text opens with: "[tdac] L3"; a block of full
      // text names its first line, a summary the lines it stands for ("… · L3–12 · summary").
      const headers = [...prompt.matchAll(/\n\[([a-z]{3,16})\](?: [^\n]*?)?(?: · | )(L[\d–]+)( · (?:summary|essence))?\n/g)].filter((m) => c.id.startsWith(hexOf(m[1])));
      return headers.length === 1 && headers[0][2] === (headers[0][3] ? lines : lines.split('–')[0]);
    }),
    prompt.slice(0, 400),
  );

  const first = chips[0];
  await page.click(`[data-testid="candidate-row"][data-id="${first.id}"] [data-testid="cite-link"]`);
  const viewer = page.locator('[data-testid="source-viewer"]');
  await page.waitForSelector('[data-testid="source-focus"]', { timeout: 20_000 });
  check('the candidate’s citation opens the viewer at its passage', (await page.getAttribute('[data-testid="source-focus"]', 'data-id')) === first.id);
  check('the viewer names the cited passage', (await page.textContent('[data-testid="source-cite"]')) === first.cite);
  check('the web edition offers no system viewer', (await viewer.locator('[data-testid="source-open-system"]').count()) === 0);
  await page.keyboard.press('Escape');
  await viewer.waitFor({ state: 'detached', timeout: 5_000 });

  // A passage far down a long note: the viewer scrolls to it.
  await page.fill('[data-testid="query-input"]', 'How were zeppelin mooring masts built?');
  await page.click('[data-testid="query-submit"]');
  const deep = page.locator('[data-testid="candidate-row"][data-status="loaded"] [data-testid="cite-link"]', { hasText: 'long-history.md#zeppelin-mooring-masts' });
  await deep.first().waitFor({ timeout: 30_000 });
  check('the long note’s section is cited with its lines', /^long-history\.md#zeppelin-mooring-masts L\d+–\d+$/.test((await deep.first().textContent()) ?? ''));
  await deep.first().click();
  await page.waitForSelector('[data-testid="source-focus"]', { timeout: 20_000 });
  check('the passage far down is scrolled into view', await page.waitForFunction(inView, null, { timeout: 5_000 }).then(() => true, () => false));
  check(
    'and the note’s start is scrolled out of view',
    await page.evaluate(() => {
      const top = document.querySelector('[data-testid="source-section"]')?.getBoundingClientRect();
      const body = document.querySelector('[data-testid="source-body"]')?.getBoundingClientRect();
      return Boolean(top && body && top.bottom < body.top);
    }),
  );
  await page.screenshot({ path: join(out, 'viewer-long.png') });
  await page.keyboard.press('Escape');
  await viewer.waitFor({ state: 'detached', timeout: 5_000 });
  check('Escape closes the viewer', (await viewer.count()) === 0);

  // A chat turn: the answer's citations are chips labelled with their sources.
  await page.waitForSelector('[data-testid="ollama-indicator"].up', { timeout: 30_000 });
  await page.fill('[data-testid="chat-input"]', question);
  await page.press('[data-testid="chat-input"]', 'Enter');
  await page.waitForSelector('[data-testid="chat-turn"][data-streaming="false"] [data-testid="chat-answer"] [data-testid="cite-link"]', { timeout: 60_000 });
  const sent = chats.at(-1)?.messages?.[0]?.content ?? '';
  check('the model is told to cite ids and that headers give the source', sent.includes("each block's header gives its source (file and section, and its lines or pages when it names them)"), sent.slice(0, 300));
  const answerChips = await page.$$eval('[data-testid="chat-answer"] [data-testid="cite-link"]', (els) => els.map((e) => ({ id: e.dataset.id, cite: e.textContent })));
  const answer = (await page.textContent('[data-testid="chat-answer"]')) ?? '';
  check(
    'two ids in one bracket become two citations, labelled by source',
    answerChips.length === 2 && answerChips.every((c) => /^graphs\.md#[\w-]+ L\d+/.test(c.cite)) && answer.includes(`[${answerChips[0].cite}, ${answerChips[1].cite}]`),
    `${answer} ${JSON.stringify(answerChips)}`,
  );
  check('the answer shows no raw node ids', !/n-[0-9a-f]{4,16}/.test(answer) && !/\[[a-z]{3,16}[,\]]/.test(answer), answer);

  const cited = answerChips[1];
  await page.click(`[data-testid="chat-answer"] [data-testid="cite-link"][data-id="${cited.id}"]`);
  await page.waitForSelector(`[data-testid="source-focus"][data-id="${cited.id}"]`, { timeout: 20_000 });
  await page.waitForFunction(() => !document.querySelector('[data-testid="source-viewer"]')?.getAttribute('aria-busy')?.includes('true'));
  const focus = page.locator('[data-testid="source-focus"]');
  check('the chat citation opens its passage, highlighted', (await focus.getAttribute('aria-current')) === 'true' && (await focus.evaluate((e) => getComputedStyle(e).backgroundColor)) !== 'rgba(0, 0, 0, 0)');
  check('the highlighted passage is in view', await page.waitForFunction(inView, null, { timeout: 5_000 }).then(() => true, () => false));
  const lines = await focus.locator('.ln').allTextContents();
  const [, from] = /L(\d+)/.exec(cited.cite) ?? [];
  check('the passage is shown with its file’s line numbers', lines.length > 0 && lines[0] === from, `${lines.join(',')} vs ${cited.cite}`);
  check('the other sections of the file are there too', (await page.locator('[data-testid="source-section"]').count()) >= 1);
  await page.screenshot({ path: join(out, 'viewer-web.png') });

  await page.click('[data-testid="source-show-in-graph"]');
  await page.waitForSelector(`[data-testid="node-details"][data-node="${cited.id}"]`, { timeout: 10_000 });
  check('Show in graph selects the cited node, whose details name it', ((await page.textContent('[data-testid="node-cite"]')) ?? '').includes(cited.cite));
  await page.screenshot({ path: join(out, 'chat-web.png') });
  await context.close();
  check('no uncaught page errors', errors.length === 0, errors.join(' | '));
} catch (e) {
  fail(e instanceof Error ? e.stack : e);
} finally {
  await browser.close();
  ollama.close();
}
done(` (screenshots in ${out})`);
