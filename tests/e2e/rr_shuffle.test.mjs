// Browser tests of the randomized-response lab's shuffle model (issue 27, item 3): the central ε of a
// shuffled survey by the clone pairs, the closed form and the lower bound, computed in the worker pool.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, newPage, openLab, serveDist, valueOf, waitDrawn } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const ready = (page, id = 'rr-shuffle-eps') => page.waitForFunction(
  (id) => Number.isFinite(parseFloat(document.querySelector(`[data-testid="${id}"]`)?.dataset.value)),
  id, { timeout: 120_000 });

test('the published setting: closed form, Apple\'s bracket, the bounds in order', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=rr&eps=4&n=100000&shuffle=1&delta=0.000001', 'rr-p-truth');
  await ready(page, 'rr-shuffle-eps-lower');
  const [krr, fmt2023, fmt2021, closed, lower] = await Promise.all(['rr-shuffle-eps', 'rr-shuffle-eps-fmt2023',
    'rr-shuffle-eps-fmt2021', 'rr-shuffle-eps-closed', 'rr-shuffle-eps-lower'].map((id) => valueOf(page, id)));
  // Feldman et al. 2021's closed form, as Apple's ml-shuffling-amplification prints it.
  assert.ok(Math.abs(closed - 0.5378040242374512) < 1e-12, `closed form ${closed}`);
  // Apple's numerical bracket for the clones of 2021: [0.16754, 0.17279].
  assert.ok(fmt2021 >= 0.16754 && fmt2021 <= 0.17279, `clones 2021 ${fmt2021}`);
  assert.ok(lower <= krr && krr === fmt2023 && krr <= fmt2021 && fmt2021 <= closed, `${lower} ${krr} ${fmt2021} ${closed}`);
  await page.waitForFunction(() => document.querySelector('[data-testid="rr-shuffle-status"]')?.textContent.trim() === '', null, { timeout: 120_000 });
  await waitDrawn(page, 'rr-shuffle-chart');
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('the toggle writes the link; K > 2 claims no lower bound; a bad δ falls back with a notice', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=rr&k=5&n=2000', 'rr-p-truth');
  await page.check('[data-testid="rr-shuffle-toggle"]');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('shuffle') === '1');
  await ready(page);
  assert.ok(await valueOf(page, 'rr-shuffle-eps') <= await valueOf(page, 'rr-shuffle-eps-fmt2023'));
  assert.ok(!Number.isFinite(await valueOf(page, 'rr-shuffle-eps-lower')));
  await page.uncheck('[data-testid="rr-shuffle-toggle"]');
  await page.waitForFunction(() => !new URLSearchParams(location.search).has('shuffle'));
  assert.deepEqual(page.problems, []);
  await page.close();
  const bad = await openLab(await newPage(browser), server.url, '?lab=rr&shuffle=1&delta=2', 'rr-p-truth');
  assert.ok(await bad.isVisible('[data-testid="notice-delta"]'));
  await ready(bad);
  assert.ok(!/NaN/.test(await bad.textContent('[data-testid="rr-shuffle"]')));
  await bad.close();
});
