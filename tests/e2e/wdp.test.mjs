// Browser tests of the Wasserstein DP lab. References: the spec's check values
// (shared/specs/wdp-figures.md), the closed forms below, and the native run (examples/wdp_fig2.rs, seed 1).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, newPage, openLab, serveDist, valueOf, waitDrawn, canvasColours } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const close = (got, want, rel, what) => assert.ok(Math.abs(got / want - 1) < rel, `${what}: ${got} vs ${want}`);
const finished = (page) => page.waitForFunction(
  () => document.querySelector('[data-testid="wdp-fig2-status"]')?.textContent.startsWith('Done'), null, { timeout: 60_000 });

test('Figure 1: the spec check values, a read-out between grid points, Table 1, four charts drawn', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=wdp&fig=1&panel=rdp-laplace&scale=2&order=5', 'wdp-fig1-value');
  close(await valueOf(page, 'wdp-fig1-value'), 0.355265, 2e-6, 'RDP-LM λ=2 α=5');
  for (const id of ['wdp-fig1-rdp-laplace', 'wdp-fig1-wdp-laplace', 'wdp-fig1-rdp-gauss', 'wdp-fig1-wdp-gauss']) {
    await waitDrawn(page, id);
    assert.ok(await canvasColours(page, id) > 3, id);
  }
  assert.match(await page.textContent('[data-testid="wdp-table1"]'), /as stated in the paper/);
  // Any real order, not only grid points: WDP-GM = ½(Δ/σ)^{1/μ}.
  await page.goto(`${server.url}?lab=wdp&fig=1&panel=wdp-gauss&scale=2&order=2.345&sens=1`);
  await page.waitForSelector('[data-testid="wdp-fig1-value"]');
  close(await valueOf(page, 'wdp-fig1-value'), 0.5 * 0.5 ** (1 / 2.345), 1e-12, 'WDP-GM σ=2 μ=2.345');
  // The slider writes the URL in place (no new history entry) and the read-out follows.
  const before = await page.evaluate(() => history.length);
  await page.fill('#field-order', '10');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('order') === '10');
  close(await valueOf(page, 'wdp-fig1-value'), 0.466516, 2e-6, 'WDP-GM σ=2 μ=10');
  assert.equal(await page.evaluate(() => history.length), before);
  assert.deepEqual(page.problems, []);
});

test('Figure 2: seeded run reproduces the native run, the DP curve is the closed form, the page stays responsive', async () => {
  const page = await newPage(browser);
  // Record the longest gap between animation frames from the first script on: a frozen page shows up here.
  await page.addInitScript(() => {
    window.__gaps = [];
    let last = performance.now();
    const tick = (t) => { window.__gaps.push(t - last); last = t; requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  });
  await openLab(page, server.url, '?lab=wdp&fig=2&seed=1&quantile=0.5', 'wdp-fig2-final-dp');
  assert.ok(await page.isVisible('[data-testid="wdp-fig2-progress"]') || (await page.textContent('[data-testid="wdp-fig2-status"]')).startsWith('Done'));
  await finished(page);
  const ms = await valueOf(page, 'wdp-fig2-ms');
  const gap = await page.evaluate(() => Math.max(...window.__gaps.slice(5)));
  console.log(`Figure 2 in the browser: ${ms} ms for the run; longest frame gap ${gap.toFixed(0)} ms`);
  assert.ok(gap < 500, `the page froze for ${gap} ms`);
  // DP: (100·c − ln δ)/16 with c = 13482.568160257 (the spec's unit value, data-independent).
  close(await valueOf(page, 'wdp-fig2-final-dp'), (100 * 13482.568160257 - Math.log(1e-5)) / 16, 1e-12, 'DP');
  // The native run of examples/wdp_fig2.rs with seed 1 (same ChaCha8 stream, same arithmetic).
  close(await valueOf(page, 'wdp-fig2-final-bdp'), 37961.86974, 1e-9, 'BDP');
  close(await valueOf(page, 'wdp-fig2-final-wdp'), 16614.498521, 1e-9, 'WDP');
  for (const id of ['wdp-fig2-q05', 'wdp-fig2-q50', 'wdp-fig2-q75', 'wdp-fig2-q99']) {
    await waitDrawn(page, id);
    assert.ok(await canvasColours(page, id) > 3, id);
  }
  // Toggles switch without a new run: no clipping (as captioned) raises BDP; inf over pairs lowers WDP.
  await page.selectOption('[data-testid="select-clip"]', 'off');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('clip') === 'off');
  close(await valueOf(page, 'wdp-fig2-final-bdp'), 67338.81047, 1e-9, 'BDP without clipping');
  await page.selectOption('[data-testid="select-pairs"]', 'inf');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('pairs') === 'inf');
  close(await valueOf(page, 'wdp-fig2-final-wdp'), 10657.262776, 1e-9, 'WDP inf over pairs');
  assert.ok((await page.textContent('[data-testid="wdp-fig2-status"]')).startsWith('Done'));
  // Another panel by its key.
  await page.selectOption('[data-testid="select-quantile"]', '0.99');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('quantile') === '0.99');
  close(await valueOf(page, 'wdp-fig2-final-bdp'), 36987.49751, 1e-9, 'BDP q=0.99 without clipping');
  assert.deepEqual(page.problems, []);
});

test('Figure 3: the spec check values, W taken from a Figure 2 run, both charts drawn', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=wdp&fig=3&beta=5&delta=1e-3&w=10', 'wdp-fig3-value');
  close(await valueOf(page, 'wdp-fig3-value'), 11.381551, 1e-7, 'β=5 δ=1e-3');
  for (const id of ['wdp-fig3-beta', 'wdp-fig3-delta']) {
    await waitDrawn(page, id);
    assert.ok(await canvasColours(page, id) > 3, id);
  }
  await page.goto(`${server.url}?lab=wdp&fig=3&beta=50&delta=1e-10`);
  await page.waitForSelector('[data-testid="wdp-fig3-value"]');
  close(await valueOf(page, 'wdp-fig3-value'), 10.460517, 1e-7, 'β=50 δ=1e-10 (W = 10 by default)');
  await page.click('[data-testid="wdp-fig3-take-w"]');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('w') !== null, null, { timeout: 60_000 });
  const w = Number(await page.evaluate(() => new URLSearchParams(location.search).get('w')));
  close(w, 16602.985596, 1e-9, 'W of seed 1, quantile 0.5, clipped, summed');
  close(await valueOf(page, 'wdp-fig3-value'), w - Math.log(1e-10) / 50, 1e-12, 'ε with that W');
  assert.deepEqual(page.problems, []);
});

test('mangled links fall back to defaults with messages, never NaN', async () => {
  let page = await openLab(await newPage(browser), server.url, '?lab=wdp&fig=1&order=0&scale=NaN&omin=5&omax=2&scales=1,-2&panel=xyz', 'wdp-fig1-value');
  for (const key of ['order', 'scale', 'omax', 'scales', 'panel']) {
    assert.ok(await page.isVisible(`[data-testid="wdp-notices"] li[data-key="${key}"]`), key);
  }
  close(await valueOf(page, 'wdp-fig1-value'), 0.5, 1e-12, 'defaults: WDP-GM σ=1 μ=2');
  // (The notices quote the link's "NaN"; the results must not show one.)
  assert.ok(!/NaN/.test(await page.textContent('.results')));
  page = await openLab(await newPage(browser), server.url, '?lab=wdp&fig=9&seed=abc&quantile=0.3&clip=maybe&w=-1', 'wdp-fig1-value');
  for (const key of ['fig', 'seed', 'quantile', 'clip', 'w']) {
    assert.ok(await page.isVisible(`[data-testid="wdp-notices"] li[data-key="${key}"]`), key);
  }
  assert.ok(!/NaN/.test(await page.textContent('.results')));
  assert.deepEqual(page.problems, []);
});
