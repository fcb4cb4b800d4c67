// Browser tests of the mechanisms lab, against the release build in dist/ served from a sub-path.
// Reference values: closed forms recomputed here, dp_accounting 0.6.0 and mpmath (named at each use).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { canvasColours, launchBrowser, newPage, openLab, serveDist, valueOf, waitDrawn } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const READY = 'mech-sigma-analytic';
const NOISE_CHARTS = ['mech-chart-densities', 'mech-chart-loss', 'mech-chart-profile', 'mech-chart-tradeoff',
  'mech-chart-samples', 'mech-chart-queries'];
const close = (got, want, rel, what) => assert.ok(Math.abs(got / want - 1) < rel, `${what}: ${got} vs ${want}`);

async function chartsDrawn(page, charts) {
  for (const chart of charts) {
    await waitDrawn(page, chart);
    // A chart whose data comes from a worker (the many-queries simulation) is first drawn empty, and a
    // chart may wait a task for its turn to draw (draw_budget): poll before calling it blank.
    let colours = 0;
    for (let i = 0; i < 100 && colours <= 3; i++) {
      colours = await canvasColours(page, chart);
      if (colours <= 3) await page.waitForTimeout(100);
    }
    assert.ok(colours > 3, `${chart} is not blank`);
  }
}

test('a shared Gaussian link shows the three calibrations and the exact δ of its σ', async () => {
  const page = await openLab(await newPage(browser), server.url,
    '?lab=mechanisms&mech=gaussian&eps=0.5&delta=1e-6&sens=2&sigma=10&seed=7', READY);
  const L = Math.log(1 / 1e-6);
  close(await valueOf(page, 'mech-sigma-lecture'), 2 * Math.sqrt(2 * (Math.log(2) + L)) / 0.5, 1e-14, 'lecture σ');
  close(await valueOf(page, 'mech-sigma-classical'), 2 * Math.sqrt(2 * (Math.log(1.25) + L)) / 0.5, 1e-14, 'classical σ');
  // dp_accounting 0.6.0: 2 · gaussian_mechanism.get_sigma_gaussian(0.5, 1e-6) = 16.115236961450048.
  const analytic = await valueOf(page, 'mech-sigma-analytic');
  close(analytic, 16.115236961450048, 1e-9, 'analytic σ');
  assert.ok(await valueOf(page, 'mech-achieved-delta-analytic') <= 1e-6, 'the analytic σ never exceeds δ');
  // mpmath (50 digits): Φ(Δ/2σ − εσ/Δ) − e^ε Φ(−Δ/2σ − εσ/Δ) at σ = 10, Δ = 2, ε = 0.5.
  close(await valueOf(page, 'mech-delta-analytic'), 0.00051253608315833247, 1e-10, 'δ of σ = 10');
  close(await valueOf(page, 'mech-laplace-scale'), 4, 1e-15, 'Laplace b');
  await chartsDrawn(page, NOISE_CHARTS);
  assert.match(await page.textContent('[data-testid="mech-zcdp-errata"]'), /ρ \+ 2√\(ρ ln\(1\/δ\)\)/);
  assert.deepEqual(page.problems, []);
});

test('Laplace, truncated Laplace and the exponential mechanism read from their links', async () => {
  let page = await openLab(await newPage(browser), server.url, '?lab=mechanisms&mech=laplace&eps=0.5&sens=2', READY);
  assert.equal(await valueOf(page, 'mech-laplace-scale'), 4);
  assert.equal(await valueOf(page, 'mech-guarantee-delta'), 0);
  await chartsDrawn(page, NOISE_CHARTS);
  assert.deepEqual(page.problems, []);

  page = await openLab(await newPage(browser), server.url, '?lab=mechanisms&mech=tlap&eps=1&delta=1e-5', READY);
  // Closed form ln(1 + (e − 1)/(2·1e-5)) (Python math.log1p: 11.361114778489599).
  close(await valueOf(page, 'mech-tlap-tau'), Math.log1p(Math.expm1(1) / 2e-5), 1e-11, 'τ');
  assert.ok(await valueOf(page, 'mech-guarantee-delta') <= 1e-5);
  await chartsDrawn(page, NOISE_CHARTS);
  assert.deepEqual(page.problems, []);

  page = await openLab(await newPage(browser), server.url, '?lab=mechanisms&mech=exponential&eps=2&sens=1&cands=a:1,b:0,c:0', READY);
  const w = [Math.E, 1, 1];
  const total = w.reduce((a, b) => a + b);
  for (const [i, wi] of w.entries()) close(await valueOf(page, `mech-em-prob-${i}`), wi / total, 1e-14, `P[${i}]`);
  assert.ok(await valueOf(page, 'mech-em-log-ratio') <= 2 + 1e-12);
  await chartsDrawn(page, ['mech-chart-em', 'mech-chart-em-eps', 'mech-chart-queries']);
  assert.deepEqual(page.problems, []);
});

test('extreme inputs give finite numbers, never NaN on screen', async () => {
  for (const query of [
    '?lab=mechanisms&mech=gaussian&eps=1e-6&delta=1e-300&sens=1e9',
    '?lab=mechanisms&mech=gaussian&eps=50&delta=1e-300&sens=1e9',
    '?lab=mechanisms&mech=tlap&eps=50&delta=1e-300&sens=1e9',
    '?lab=mechanisms&mech=laplace&eps=1e-6&sens=1e9&kmax=100000',
    '?lab=mechanisms&mech=exponential&eps=50&cands=a:1e12,b:-1e12',
  ]) {
    const page = await openLab(await newPage(browser), server.url, query, READY);
    for (const id of ['mech-sigma-lecture', 'mech-sigma-classical', 'mech-sigma-analytic', 'mech-laplace-scale', 'mech-tlap-tau', 'mech-delta-analytic']) {
      const v = await valueOf(page, id);
      assert.ok(Number.isFinite(v), `${query}: ${id} = ${v}`);
    }
    // The many-queries simulation comes from a worker: wait for its numbers.
    await page.waitForFunction(() => Number.isFinite(parseFloat(document.querySelector('[data-testid="mech-crossover-k"]')?.dataset.value)));
    await waitDrawn(page, 'mech-chart-queries');
    const text = await page.textContent('main');
    assert.ok(!/NaN|Infinity|—/.test(text), `${query}: the page shows NaN, ∞ or a dash`);
    assert.deepEqual(page.problems, [], query);
  }
});

test('a mangled link falls back with messages and keeps the good values', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=mechanisms&mech=wavelet&eps=abc&delta=2&sens=-1&sigma=0&cands=x', READY);
  for (const key of ['mech', 'eps', 'delta', 'sens', 'sigma']) {
    assert.ok(await page.isVisible(`[data-testid="notice-${key}"]`), `notice for ${key}`);
  }
  assert.equal(await page.inputValue('[data-testid="input-eps"]'), 'abc', 'the raw text stays in its field');
  close(await valueOf(page, 'mech-sigma-analytic'), 3.730631634815937, 1e-9, 'defaults in use (dp_accounting)');
  await chartsDrawn(page, ['mech-chart-densities']);
  assert.deepEqual(page.problems, []);
});

test('moving ε recomputes, redraws and replaces the URL without a history entry', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=mechanisms&mech=gaussian', READY);
  await waitDrawn(page, 'mech-chart-profile');
  const before = await valueOf(page, 'mech-sigma-analytic');
  const drawn = Number(await page.getAttribute('[data-testid="mech-chart-profile"]', 'data-drawn'));
  const historyBefore = await page.evaluate(() => history.length);
  await page.fill('[data-testid="slider-eps"]', '2');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('eps') === '2');
  await waitDrawn(page, 'mech-chart-profile', drawn + 1);
  // dp_accounting 0.6.0: get_sigma_gaussian(2, 1e-5) = 1.993812445643537.
  close(await valueOf(page, 'mech-sigma-analytic'), 1.993812445643537, 1e-9, 'σ at ε = 2');
  assert.ok(before > 3);
  assert.equal(await page.evaluate(() => history.length), historyBefore);
  // Choosing another mechanism keeps the other keys.
  await page.selectOption('[data-testid="select-mech"]', 'tlap');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('mech') === 'tlap');
  assert.equal(await page.evaluate(() => new URLSearchParams(location.search).get('eps')), '2');
  assert.deepEqual(page.problems, []);
});
