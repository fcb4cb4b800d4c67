// Browser tests of the composition lab. References: dp_accounting 0.6.0 (scripts/reference/dpsgd.py).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { canvasColours, launchBrowser, newPage, openLab, serveDist, valueOf, waitDrawn } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const done = (page) => page.waitForFunction(() => document.querySelector('[data-testid="compose-status"]')?.textContent === '', null, { timeout: 60_000 });

test('a list from the link: every accountant side by side, PLD and RDP as dp_accounting', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=compose&list=gauss:3*10,lap:0.2*5&delta=1e-5', 'compose-eps-basic');
  await done(page);
  // dp_accounting 0.6.0 on 10 × Gaussian(3) + 5 × Laplace(5): RDP 5.451019265845648, PLD 5.06076638255925.
  const rdp = await valueOf(page, 'compose-eps-rdp-grid');
  assert.ok(Math.abs(rdp / 5.451019265845648 - 1) < 0.01, `RDP ${rdp}`);
  assert.ok(await valueOf(page, 'compose-eps-rdp') <= rdp, 'every real order is never looser than the grid');
  const pld = await valueOf(page, 'compose-eps-pld');
  assert.ok(pld >= 5.06076638255925 * 0.999 && pld <= 5.06076638255925 * 1.02, `PLD ${pld}`);
  const basic = await valueOf(page, 'compose-eps-basic');
  const advanced = await valueOf(page, 'compose-eps-advanced');
  assert.ok(basic > pld && advanced > pld, `${basic} ${advanced}`);
  for (const chart of ['compose-chart', 'compose-chart-orders']) {
    await waitDrawn(page, chart);
    assert.ok(await canvasColours(page, chart) > 3, chart);
  }
  assert.deepEqual(page.problems, []);
});

test('the list round-trips through the link: add and remove rewrite it, bad lists fall back', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=compose&list=lap:0.1*10', 'compose-eps-basic');
  assert.ok(Math.abs(await valueOf(page, 'compose-eps-basic') - 1) < 1e-12, 'ten Laplace(0.1): basic ε = 1');
  await page.click('text=+ Gaussian σ = 2, ×10');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('list') === 'lap:0.1*10,gauss:2*10');
  await page.click('text=+ Gaussian σ = 1 on a 10% subsample, ×10');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('list') === 'lap:0.1*10,gauss:2*10,wor:0.1:gauss:1*10');
  // Subsampling without replacement has no tight pair: the band says why it stays wide.
  await page.waitForSelector('[data-testid="compose-band-gap"]');
  assert.match(await page.textContent('[data-testid="compose-band-gap"]'), /wor:0\.1:gauss:1\*10/);
  await page.click('[data-testid="compose-remove-2"]');
  await page.waitForSelector('[data-testid="compose-band-gap"]', { state: 'detached' });
  await page.waitForFunction(() => new URLSearchParams(location.search).get('list') === 'lap:0.1*10,gauss:2*10');
  await page.click('[data-testid="compose-remove-0"]');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('list') === 'gauss:2*10');
  // The × buttons say what they remove; Back undoes a removal.
  assert.equal(await page.getAttribute('[data-testid="compose-remove-0"]', 'aria-label'), 'Remove Gaussian, σ/Δ = 2 (×10)');
  await page.goBack();
  await page.waitForFunction(() => new URLSearchParams(location.search).get('list') === 'lap:0.1*10,gauss:2*10');
  // A typo keeps the last valid list's numbers and names the bad entry.
  const before = await valueOf(page, 'compose-eps-basic');
  await page.fill('[data-testid="input-list"]', 'lap:0.1*10,gauss:2*x');
  await page.waitForSelector('[data-testid="notice-list"]:visible');
  const notice = await page.textContent('[data-testid="notice-list"]');
  assert.match(notice, /"gauss:2\*x"/);
  assert.match(notice, /last valid list, lap:0\.1\*10,gauss:2\*10/);
  assert.equal(await valueOf(page, 'compose-eps-basic'), before);
  const bad = await openLab(await newPage(browser), server.url, '?lab=compose&list=foo:1&delta=7', 'compose-eps-basic');
  for (const key of ['list', 'delta']) assert.ok(await bad.isVisible(`[data-testid="notice-${key}"]`), key);
  assert.deepEqual(page.problems, []);
  assert.deepEqual(bad.problems, []);
});

test('the DP-SGD lab opens lecture scenarios 1 and 2 in the composition lab', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=dpsgd', 'dpsgd-eps-rdp');
  await page.click('[data-testid="scenario2-link"]');
  await page.waitForSelector('[data-testid="compose-eps-basic"]');
  await done(page);
  // Scenario 2's σ is calibrated (zCDP) to the target ε = 2 at δ = 1e-5: the zCDP accountant must say 2.
  const zcdp = await valueOf(page, 'compose-eps-zcdp');
  assert.ok(Math.abs(zcdp / 2 - 1) < 1e-6, `zCDP ε ${zcdp}`);
  assert.ok(await valueOf(page, 'compose-eps-pld') <= zcdp);
  await page.goBack();
  await page.click('[data-testid="scenario1-link"]');
  await page.waitForSelector('[data-testid="compose-eps-basic"]');
  // Scenario 1 is calibrated by basic composition of the amplified steps: ε = 2 exactly (up to rounding).
  assert.ok(Math.abs(await valueOf(page, 'compose-eps-basic') / 2 - 1) < 1e-6);
  assert.deepEqual(page.problems, []);
});

test('balls:σ:t composes epochs of balls-in-bins batches in the worker pool: the DP-SGD lab\'s bound, and no NaN', async () => {
  // 61 epochs of 234 steps at σ = 1.1 (Abadi et al.'s MNIST with balls-in-bins batches): the core's upper
  // bound natively (tests/allocation.rs) 2.36243; the lower side is the largest batch sum's, far below.
  const page = await openLab(await newPage(browser), server.url, '?lab=compose&list=balls:1.1:234*61&delta=1e-5', 'compose-eps-basic');
  await done(page);
  const [pld, lower] = [await valueOf(page, 'compose-eps-pld'), await valueOf(page, 'compose-eps-pld-lower')];
  assert.ok(Math.abs(pld / 2.3624334473642508 - 1) < 2e-3, `PLD ${pld}`);
  assert.ok(lower > 0 && lower <= pld, `${lower} ${pld}`);
  // Basic composition reads the Gaussian at σ per epoch (a closed form on the page), far above.
  assert.ok(await valueOf(page, 'compose-eps-basic') > pld);
  assert.ok(!/NaN/.test(await page.textContent('.results')), 'NaN on the page');
  assert.deepEqual(page.problems, []);
});
