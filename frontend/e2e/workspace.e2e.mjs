// End-to-end test of the desktop app's workspace states, driven in Debian's
// Chromium with playwright-core against `wails dev` (scripts/e2e-desktop.sh
// sets the scene before each phase):
//
//   node workspace.e2e.mjs read-only 3>HOLDER_STDIN 4<HOLDER_STDOUT
//       Another Loom process (tools/holdworkspace) held the workspace when
//       the app started: the banner says so, writes are off with the reason;
//       then the holder is let go (its stdin, fd 3, is closed; the end of
//       its stdout, fd 4, says it has closed the workspace), Try again is
//       pressed and the banner goes: the workspace is writable.
//   node workspace.e2e.mjs damaged
//       The workspace's graph store was overwritten before the app started:
//       the panel names the file, Check workspace lists the findings, Repair
//       salvages it and reports where the damaged copy is, and the repaired
//       workspace opens with its documents.
//
//   LOOM_E2E_URL   the page (default http://localhost:34115)
//   LOOM_E2E_OUT   where screenshots go (default ../build/bin/e2e)
//
// Every wait is on a state of the page or of the holder, never a fixed time
// (the timeouts only bound a hang). Prints "N passed, M failed".
import { chromium } from 'playwright-core';
import { closeSync, createReadStream, mkdirSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checks } from './checks.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const phase = process.argv[2];
if (phase !== 'read-only' && phase !== 'damaged') {
  console.error('usage: node workspace.e2e.mjs read-only|damaged');
  process.exit(2);
}
const url = process.env.LOOM_E2E_URL ?? 'http://localhost:34115';
const out = resolve(process.env.LOOM_E2E_OUT ?? join(here, '../../build/bin/e2e'));
mkdirSync(out, { recursive: true });

const { check, fail, done } = checks('e2e');

// The holder's stdout (fd 4) ends when it has closed the workspace and
// exited: read it now, so that end is seen whenever it comes.
const holderGone =
  phase === 'read-only'
    ? new Promise((resolveGone, rejectGone) => {
        const s = createReadStream('', { fd: 4 });
        s.on('end', resolveGone);
        s.on('error', rejectGone);
        s.resume();
      })
    : null;

const browser = await chromium.launch({
  executablePath: process.env.LOOM_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--enable-unsafe-swiftshader', '--use-angle=swiftshader'],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
const errors = [];
page.on('pageerror', (e) => errors.push(String(e)));
const text = async (sel) => ((await page.locator(sel).first().textContent()) ?? '').trim();

try {
  await page.goto(url);
  if (phase === 'read-only') await readOnly();
  else await damaged();
  check('no uncaught page errors', errors.length === 0, errors.join(' | '));
} catch (e) {
  fail(e instanceof Error ? e.message : e);
  await page.screenshot({ path: join(out, `failure-${phase}.png`) }).catch(() => {});
} finally {
  await browser.close();
}
done(` (${phase}; screenshots in ${out})`);

async function readOnly() {
  const banner = page.locator('[data-testid="read-only-banner"]');
  await banner.waitFor({ timeout: 60_000 });
  const message = await text('[data-testid="read-only-message"]');
  check(
    'the banner says another Loom process holds the workspace and what that means',
    message.includes('another Loom process is using this workspace') && message.includes('questions work; nothing you add or change here is saved'),
    message,
  );
  check('the banner is information, not an alert', (await banner.getAttribute('role')) === 'status');

  const pick = page.locator('[data-testid="pick-files"]');
  const sample = page.locator('[data-testid="try-sample"]');
  await sample.waitFor({ timeout: 30_000 });
  const pickTitle = (await pick.getAttribute('title')) ?? '';
  check('Add files… is disabled and says why', (await pick.isDisabled()) && pickTitle.includes('Read-only: another Loom process'), pickTitle);
  check('the sample library is disabled too', await sample.isDisabled());
  check('the chat is off (it saves conversations)', await page.locator('[data-testid="chat-input"]').isDisabled());
  await page.screenshot({ path: join(out, 'read-only.png') });

  // The other process finishes: close its stdin and wait for it to have
  // closed the workspace (its stdout ends), then Try again.
  closeSync(3);
  await holderGone;
  await page.click('[data-testid="read-only-retry"]');
  await banner.waitFor({ state: 'detached', timeout: 30_000 });
  check('Try again once the other process has closed: the banner goes', (await banner.count()) === 0);
  check('and Add files… is enabled', !(await pick.isDisabled()));
  check('and the sample library too', !(await sample.isDisabled()));
}

async function damaged() {
  const panel = page.locator('[data-testid="app-error"][data-code="damaged"]');
  await panel.waitFor({ timeout: 60_000 });
  const file = await text('[data-testid="damage-file"]');
  check('the panel names the damaged file', file.endsWith('indexes.bolt'), file);
  check('it says nothing has been changed', (await text('[data-testid="error-message"]')).includes('Nothing has been changed'));
  check('it says what is wrong', (await text('[data-testid="damage-problem"]')).length > 0);
  await page.screenshot({ path: join(out, 'damaged.png') });

  await page.click('[data-testid="check-workspace"]');
  await page.locator('[data-testid="checkup"]').waitFor({ timeout: 60_000 });
  const store = page.locator('[data-testid="finding"][data-part="graph store"]');
  check('Check workspace finds the graph store damaged', (await store.getAttribute('data-status')) === 'problem', await store.textContent());
  check('and says what repair would do', ((await store.textContent()) ?? '').includes('Repair:'));
  await page.screenshot({ path: join(out, 'checkup.png') });

  await page.click('[data-testid="repair-workspace"]');
  await page.locator('[data-testid="repair-report"]').waitFor({ timeout: 120_000 });
  const copy = await text('[data-testid="repair-damaged-copy"]');
  check('Repair says where the damaged workspace was kept', /\.damaged-1\b/.test(copy), copy);
  check('and checks clean afterwards', (await text('[data-testid="repair-after"]')).includes('no problems'));
  await page.screenshot({ path: join(out, 'repaired.png') });

  await page.click('[data-testid="open-repaired"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="document-list"] [data-testid="document-item"]').length > 0, null, {
    timeout: 60_000,
  });
  const docs = await page.locator('[data-testid="document-item"]').count();
  check('the repaired workspace opens with its documents', docs > 0, `${docs} documents`);
  check('writable', !(await page.locator('[data-testid="pick-files"]').isDisabled()));

  await page.click('[data-testid="library-check"]');
  await page.locator('[data-testid="check-dialog"] [data-testid="checkup"]').waitFor({ timeout: 60_000 });
  const summary = await text('[data-testid="checkup-summary"]');
  check('Check workspace on it finds no problems', summary.includes('No problems found'), summary);
}
