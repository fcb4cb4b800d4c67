// Browser tests of issue 13: accountants that never under-report. Every number is read from the page
// (data-value); references are closed forms or dp_accounting 0.6.0 (scripts/reference/accountants.py).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, newPage, openLab, serveDist, valueOf } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const composeDone = (page) => page.waitForFunction(() => document.querySelector('[data-testid="compose-status"]')?.textContent === '', null, { timeout: 120_000 });
const dpsgdDone = (page) => page.waitForFunction(() => document.querySelector('[data-testid="dpsgd-status"]')?.textContent === '', null, { timeout: 120_000 });

test('lap:0.01*100000 no longer prints ε = 0: a band of positive bounds below advanced composition', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=compose&list=lap:0.01*100000&delta=1e-5', 'compose-eps-basic');
  await composeDone(page);
  const upper = await valueOf(page, 'compose-eps-pld');
  const lower = await valueOf(page, 'compose-eps-pld-lower');
  // One step alone has δ(0) = 1 − e^{−0.005} > 1e-5, so ε > 0; advanced composition (closed form) is above.
  const advanced = 0.01 * Math.sqrt(2e5 * Math.log(1e5)) + 1e3 * Math.expm1(0.01);
  assert.ok(lower > 1 && lower <= upper && upper < advanced, `lower ${lower} upper ${upper} advanced ${advanced}`);
  assert.equal(await valueOf(page, 'compose-eps-basic'), 1000);
  assert.ok(await valueOf(page, 'compose-pld-band-width') >= 0);
  assert.deepEqual(page.problems, []);
});

test('dp:0.1:0*1000000 counts every repetition: basic 100 000, advanced by its closed form', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=compose&list=dp:0.1:0*1000000&delta=1e-5', 'compose-eps-basic');
  assert.ok(Math.abs(await valueOf(page, 'compose-eps-basic') - 1e5) < 1e-6);
  const advanced = 0.1 * Math.sqrt(2e6 * Math.log(1e5)) + 1e5 * Math.expm1(0.1);
  assert.ok(Math.abs(await valueOf(page, 'compose-eps-advanced') / advanced - 1) < 1e-9);
  const optimal = await valueOf(page, 'compose-eps-optimal');
  assert.ok(optimal > 0 && optimal < advanced, `KOV ${optimal}`);
  await composeDone(page);
  const upper = await valueOf(page, 'compose-eps-pld');
  assert.ok(upper <= 1e5 && await valueOf(page, 'compose-eps-pld-lower') <= upper);
  assert.deepEqual(page.problems, []);
});

test('K-ary randomized response composes, Gaussians bracket their exact ε, and a finer grid narrows the band', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=compose&list=rr:1:4*10&delta=1e-5', 'compose-eps-basic');
  await composeDone(page);
  assert.equal(await valueOf(page, 'compose-eps-basic'), 10);
  const rr = await valueOf(page, 'compose-eps-pld');
  assert.ok(rr > 0 && rr <= 10 && await valueOf(page, 'compose-eps-pld-lower') <= rr);
  // gauss:1*100 = one Gaussian of σ = 0.1: exact ε at δ = 1e-5 is 48.4… (Balle & Wang's closed form,
  // solved in the test below by bisection on δ(ε) = Φ(1/(2s) − εs) − e^ε Φ(−1/(2s) − εs)).
  const g = await openLab(await newPage(browser), server.url, '?lab=compose&list=gauss:1*100&delta=1e-5&grid=0.01', 'compose-eps-basic');
  await composeDone(g);
  const exact = gaussianEpsilon(0.1, 1e-5);
  const [lo, hi] = [await valueOf(g, 'compose-eps-pld-lower'), await valueOf(g, 'compose-eps-pld')];
  assert.ok(lo <= exact + 1e-9 && exact <= hi + 1e-9, `${lo} ≤ ${exact} ≤ ${hi}`);
  const wide = await valueOf(g, 'compose-pld-band-width');
  if (await g.isVisible('[data-testid="compose-finer-grid"]')) {
    await g.click('[data-testid="compose-finer-grid"]');
    await g.waitForFunction(() => new URLSearchParams(location.search).get('grid') === '0.0025');
    await composeDone(g);
    assert.ok(await valueOf(g, 'compose-pld-band-width') < wide, 'a finer grid narrows the band');
  }
  assert.deepEqual(page.problems, []);
  assert.deepEqual(g.problems, []);
});

test('below δ = 1e-10 the PLD says why it reports nothing; no NaN on the page', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=compose&list=gauss:2*10&delta=1e-12', 'compose-eps-basic');
  await composeDone(page);
  assert.ok(await page.isVisible('[data-testid="compose-pld-floor"]'));
  assert.ok(!/NaN/.test(await page.textContent('main')));
  assert.ok(Number.isFinite(await valueOf(page, 'compose-eps-rdp')));
  assert.deepEqual(page.problems, []);
});

test('DP-SGD: the PLD band, and σ for the target by the PLD with less noise than RDP, which "use it" confirms', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=dpsgd&n=60000&batch=256&sigma=1.1&epochs=60&delta=1e-5&target_eps=2', 'dpsgd-eps-rdp');
  await dpsgdDone(page);
  const [lower, upper] = [await valueOf(page, 'dpsgd-eps-pld-lower'), await valueOf(page, 'dpsgd-eps-pld')];
  // dp_accounting 0.6.0's PLD (pessimistic, 1e-4) gives 2.3817 at 14062 steps; ours brackets the exact ε.
  assert.ok(lower <= upper && lower > 2.3 && upper < 2.45, `band ${lower} – ${upper}`);
  const [rdpSigma, pldSigma] = [await valueOf(page, 'dpsgd-sigma-for-target'), await valueOf(page, 'dpsgd-sigma-for-target-pld')];
  assert.ok(pldSigma < rdpSigma && pldSigma > 0.8 * rdpSigma, `σ PLD ${pldSigma} vs RDP ${rdpSigma}`);
  const saving = await valueOf(page, 'dpsgd-sigma-saving');
  assert.ok(Math.abs(saving - 100 * (1 - pldSigma / rdpSigma)) < 1e-9);
  const ms = await valueOf(page, 'dpsgd-sigma-pld-ms');
  console.log(`σ for ε = 2 by PLD (Abadi MNIST): ${pldSigma} vs RDP ${rdpSigma}, ${ms.toFixed(0)} ms of compute`);
  await page.click('[data-testid="use-sigma-for-target-pld"]');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('sigma') !== '1.1');
  await dpsgdDone(page);
  const eps = await valueOf(page, 'dpsgd-eps-pld');
  assert.ok(eps <= 2 && eps > 1.995, `PLD ε at the PLD's σ: ${eps}`);
  assert.deepEqual(page.problems, []);
});

test('what the audit turned up, read from the page: no cap on counts, no cancellation at δ = 1e-300, no overflow at huge ε', async () => {
  // KOV optimum for 10⁶ runs of randomized response with ε = 0.01 (was n/a above 10⁴ runs):
  // mpmath at 50 digits, scripts/reference/accountants.py: 91.8160016369997.
  let page = await openLab(await newPage(browser), server.url, '?lab=compose&list=rr:0.01*1000000&delta=1e-5', 'compose-eps-basic');
  const kov = await valueOf(page, 'compose-eps-optimal');
  assert.ok(kov >= 91.8160016369997 && kov <= 91.8160016369997 * (1 + 1e-9), `KOV ${kov}`);
  assert.deepEqual(page.problems, []);
  // One subsampled Gaussian step at δ = 1e-300: the two-Φ̄ form of δ cancelled to 0 long before, which
  // made ε too small. mpmath at 60 digits on that same form: 32.719011185509067.
  page = await openLab(await newPage(browser), server.url, '?lab=compose&list=sgauss:0.01:1*1&delta=1e-300', 'compose-eps-basic');
  const basic = await valueOf(page, 'compose-eps-basic');
  assert.ok(Math.abs(basic / 32.719011185509067 - 1) < 1e-12, `basic ${basic}`);
  assert.deepEqual(page.problems, []);
  // A Gaussian with σ = 0.001 needs ε ≈ 5·10⁵: e^ε overflowed and the optimal ε printed 0.
  page = await openLab(await newPage(browser), server.url, '?lab=compose&list=gauss:0.001*1&delta=1e-3', 'compose-eps-basic');
  const [g, opt] = [await valueOf(page, 'compose-eps-basic'), await valueOf(page, 'compose-eps-optimal')];
  assert.ok(g > 5e5 && opt >= g && opt <= 1.01 * g, `basic ${g}, optimal ${opt}`);
  await composeDone(page);
  assert.ok(!/NaN/.test(await page.textContent('main')));
  assert.deepEqual(page.problems, []);
});

/** Exact ε of the Gaussian mechanism with σ/Δ = s at δ (Balle & Wang 2018, Theorem 8), by bisection. */
function gaussianEpsilon(s, delta) {
  const phi = (x) => 0.5 * erfc(-x / Math.SQRT2);
  const d = (e) => phi(0.5 / s - e * s) - Math.exp(e) * phi(-0.5 / s - e * s);
  let [lo, hi] = [0, 1];
  while (d(hi) > delta) hi *= 2;
  for (let i = 0; i < 200; i++) { const mid = (lo + hi) / 2; if (d(mid) > delta) lo = mid; else hi = mid; }
  return hi;
}

/** erfc by its continued fraction / series (double precision is plenty for a 1e-9 check at δ = 1e-5). */
function erfc(x) {
  if (x < 0) return 2 - erfc(-x);
  if (x < 3) {
    // erf by its Taylor series.
    let sum = x, term = x;
    for (let n = 1; n < 200; n++) { term *= -x * x / n; sum += term / (2 * n + 1); }
    return 1 - 2 / Math.sqrt(Math.PI) * sum;
  }
  // Continued fraction (Lentz) for large x.
  let f = 0;
  for (let n = 60; n >= 1; n--) f = n / 2 / (x + f);
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / (x + f);
}
