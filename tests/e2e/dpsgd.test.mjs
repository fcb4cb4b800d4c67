// Browser tests of the DP-SGD lab. References: dp_accounting 0.6.0 (scripts/reference/dpsgd.py).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, newPage, openLab, serveDist, valueOf, waitDrawn, canvasColours } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const done = (page) => page.waitForFunction(() => document.querySelector('[data-testid="dpsgd-status"]')?.textContent === '', null, { timeout: 60_000 });

test('the Abadi et al. link: RDP and PLD ε against dp_accounting, σ for the target, charts drawn', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=dpsgd&n=60000&batch=256&sigma=1.1&steps=14062&delta=1e-5&target_eps=2', 'dpsgd-eps-rdp');
  await done(page);
  // dp_accounting 0.6.0: RdpAccountant 2.5965558697943036 (order 8.1); PLDAccountant 2.381686002234784.
  const rdp = await valueOf(page, 'dpsgd-eps-rdp-grid');
  assert.ok(Math.abs(rdp / 2.5965558697943036 - 1) < 0.01, `RDP ε ${rdp}`);
  assert.equal(await valueOf(page, 'dpsgd-best-order-grid'), 8.1);
  // Over every real order (fractional ones exact): tighter, never looser.
  const tight = await valueOf(page, 'dpsgd-eps-rdp');
  assert.ok(tight <= rdp && tight > 0.98 * rdp, `tight RDP ${tight} vs grid ${rdp}`);
  const pld = await valueOf(page, 'dpsgd-eps-pld');
  assert.ok(pld >= 2.381686002234784 * (1 - 1e-3) && pld <= 2.381686002234784 * 1.02, `PLD ε ${pld}`);
  const sigma = await valueOf(page, 'dpsgd-sigma-for-target');
  assert.ok(sigma > 1.1 && sigma < 2, `σ for ε = 2: ${sigma}`);
  for (const chart of ['dpsgd-chart-steps', 'dpsgd-chart-orders']) {
    await waitDrawn(page, chart);
    assert.ok(await canvasColours(page, chart) > 3, chart);
  }
  // "Use σ for the target" makes the RDP ε meet the target without overshooting.
  await page.click('[data-testid="use-sigma-for-target"]');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('sigma') !== '1.1');
  await done(page);
  const eps = await valueOf(page, 'dpsgd-eps-rdp-grid');
  assert.ok(eps <= 2 + 1e-4 && eps > 1.99, `ε at σ for target: ${eps}`);
  assert.deepEqual(page.problems, []);
});

test('q = 0.01, σ = 1, T = 10⁵: the PLD accountant finishes and the page stays responsive', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=dpsgd&q=0.01&sigma=1&steps=100000&delta=1e-5', 'dpsgd-eps-rdp');
  await done(page);
  const ms = await valueOf(page, 'dpsgd-pld-ms');
  const eps = await valueOf(page, 'dpsgd-eps-pld');
  console.log(`PLD, q = 0.01, σ = 1, T = 1e5: ε = ${eps} in ${ms} ms; RDP in ${await valueOf(page, 'dpsgd-rdp-ms')} ms`);
  assert.ok(Number.isFinite(eps) && eps < await valueOf(page, 'dpsgd-eps-rdp'));
  assert.ok(ms < 2000, `PLD took ${ms} ms`);
  assert.deepEqual(page.problems, []);
});

test('extreme and mangled inputs give numbers or clear messages, never NaN', async () => {
  let page = await openLab(await newPage(browser), server.url, '?lab=dpsgd&q=1&steps=10000000&sigma=0.3&delta=1e-12', 'dpsgd-eps-rdp');
  await done(page);
  assert.ok(Number.isFinite(await valueOf(page, 'dpsgd-eps-rdp')));
  assert.ok(!/NaN/.test(await page.textContent('main')));
  const pld = await valueOf(page, 'dpsgd-eps-pld');
  const sigmaMessage = await page.locator('.notices').count();
  assert.ok(Number.isFinite(pld) || sigmaMessage > 0, `PLD ${pld} without a message`);
  page = await openLab(await newPage(browser), server.url, '?lab=dpsgd&n=abc&sigma=-1&neighbour=swap&delta=2', 'dpsgd-eps-rdp');
  for (const key of ['n', 'sigma', 'delta']) assert.ok(await page.isVisible(`[data-testid="notice-${key}"]`), key);
  assert.ok(Math.abs(await valueOf(page, 'dpsgd-eps-rdp-grid') / 2.5965558697943036 - 1) < 0.01, 'defaults in use');
  assert.deepEqual(page.problems, []);
});
