// Browser tests of the app shell: navigation, the About page, unknown labs, "Copy link".
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, newPage, openLab, serveDist, SUB_PATH } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

test('the navigation switches labs and keeps the parameters and the sub-path', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=rr&eps=0.5');
  await page.click('[data-testid="nav-about"]');
  await page.waitForSelector('[data-testid="formulas-rr"]');
  const url = new URL(page.url());
  assert.equal(url.pathname, SUB_PATH);
  assert.equal(url.searchParams.get('eps'), '0.5');
  assert.ok((await page.locator('[data-testid="formulas-rr"] dt').count()) >= 5);
  await page.goBack();
  await page.waitForSelector('[data-testid="rr-p-truth"]');
  assert.equal(new URL(page.url()).searchParams.get('lab'), 'rr');
  assert.deepEqual(page.problems, []);
});

test('an unknown lab opens the default one with a message', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=nope&eps=2');
  assert.match(await page.locator('[data-testid="notices"]').innerText(), /lab = "nope"/);
  assert.deepEqual(page.problems, []);
});

test('the bare address opens the default lab', async () => {
  const page = await openLab(await newPage(browser), server.url, '');
  assert.ok(await page.locator('[data-testid="rr-estimate-1"]').isVisible());
  assert.deepEqual(page.problems, []);
});

test('"Copy link" copies the address that restores the view', async () => {
  const page = await newPage(browser, { permissions: ['clipboard-read', 'clipboard-write'] });
  await openLab(page, server.url, '?lab=rr&eps=3&k=4&seed=11');
  await page.click('[data-testid="copy-link"]');
  await page.waitForSelector('.copy-status:has-text("Link copied.")');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, page.url());
  const again = await openLab(await newPage(browser), '', copied);
  assert.equal(await again.getAttribute('[data-testid="rr-estimate-0"]', 'data-value'),
    await page.getAttribute('[data-testid="rr-estimate-0"]', 'data-value'));
  assert.deepEqual(page.problems, []);
});

test('switching labs in quick succession, and back and forward, never kills the page', async () => {
  // A lab left mid-frame once panicked: a frame callback of one of its charts read a disposed signal.
  const page = await openLab(await newPage(browser), server.url, '?lab=dpsgd', 'dpsgd-eps-rdp');
  const labs = ['compose', 'mechanisms', 'dpsgd', 'wdp', 'tangent', 'rr', 'compose', 'dpsgd', 'mechanisms'];
  for (let round = 0; round < 3; round++) {
    for (const [i, lab] of labs.entries()) {
      await page.click(`[data-testid="nav-${lab}"]`);
      await page.waitForTimeout((i * 7 + round * 5) % 23);
    }
    for (let i = 0; i < 4; i++) {
      await page.goBack();
      await page.waitForTimeout(i * 6);
    }
    for (let i = 0; i < 4; i++) {
      await page.goForward();
      await page.waitForTimeout(i * 4);
    }
  }
  await page.click('[data-testid="nav-rr"]');
  await page.waitForSelector('[data-testid="rr-p-truth"]');
  await page.waitForTimeout(500);
  assert.deepEqual(page.problems, []);
});
