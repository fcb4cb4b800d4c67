// Browser tests of the randomized-response lab, against the release build in dist/ served from a
// sub-path. Reference values are the closed forms, recomputed here independently of the Rust core.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { canvasColours, launchBrowser, newPage, openLab, serveDist, valueOf, waitDrawn } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Closed forms of K-ary randomized response (lecture slides; Wang et al. 2017 §4). */
function closedForm(eps, k, n, pi) {
  const p = Math.exp(eps) / (k - 1 + Math.exp(eps));
  const q = 1 / (k - 1 + Math.exp(eps));
  const lambda = q + pi * (p - q);
  return { p, q, stderr: Math.sqrt(lambda * (1 - lambda) / n) / (p - q) };
}

/**
 * Standard error for a fixed population (these exact people; only the coin flips vary): the report count
 * is a sum of independent Bernoullis, Var(π̂) = [π p(1−p) + (1−π) q(1−q)] / (n (p−q)²).
 */
function fixedStderr(eps, k, n, pi) {
  const { p, q } = closedForm(eps, k, n, pi);
  return Math.sqrt((pi * p * (1 - p) + (1 - pi) * q * (1 - q)) / n) / (p - q);
}

const CHARTS = ['rr-chart-frequencies', 'rr-chart-histogram'];
const SEEDED = '?lab=rr&eps=1&k=3&n=5000&truth=0.5,0.3,0.2&reps=300&seed=7';

test('a seeded link shows the closed-form numbers and a plausible simulation', async () => {
  const page = await openLab(await newPage(browser), server.url, SEEDED);
  const truth = [0.5, 0.3, 0.2];
  const ref = closedForm(1, 3, 5000, 0);
  assert.ok(Math.abs(await valueOf(page, 'rr-p-truth') - ref.p) < 1e-12);
  assert.ok(Math.abs(await valueOf(page, 'rr-max-ratio') - Math.E) < 1e-12);
  let total = 0;
  for (const [j, pi] of truth.entries()) {
    const { stderr } = closedForm(1, 3, 5000, pi);
    const est = await valueOf(page, `rr-estimate-${j}`);
    const se = await valueOf(page, `rr-stderr-${j}`);
    const sd = await valueOf(page, `rr-empirical-sd-${j}`);
    assert.ok(Math.abs(se - stderr) < 1e-12 * stderr, `stderr ${j}: ${se} vs ${stderr}`);
    // Seeded, so deterministic; the bounds are also what any seed meets but once in a million:
    // |estimate − π| < 5.3 SE, and the spread of 300 surveys within 30% of the SE (≈ 7 s.d. of it).
    assert.ok(Math.abs(est - pi) < 5.3 * stderr, `estimate ${j}: ${est}`);
    assert.ok(Math.abs(sd / stderr - 1) < 0.3, `empirical sd ${j}: ${sd} vs ${stderr}`);
    total += est;
  }
  assert.ok(Math.abs(total - 1) < 1e-9, 'the estimates sum to 1');
  for (const chart of CHARTS) {
    await waitDrawn(page, chart);
    assert.ok(await canvasColours(page, chart) > 3, `${chart} is not blank`);
  }
  assert.deepEqual(page.problems, []);
});

test('the same link twice gives the same survey (seeded)', async () => {
  const read = async () => {
    const page = await openLab(await newPage(browser), server.url, SEEDED);
    return Promise.all([0, 1, 2].map((j) => valueOf(page, `rr-estimate-${j}`)));
  };
  assert.deepEqual(await read(), await read());
});

test('moving a slider updates the numbers and replaces the URL without a history entry', async () => {
  const page = await openLab(await newPage(browser), server.url, SEEDED);
  await waitDrawn(page, 'rr-chart-frequencies');
  const historyBefore = await page.evaluate(() => history.length);
  await page.locator('[data-testid="slider-eps"]').fill('2');
  await page.waitForFunction(() => location.search.includes('eps=2'));
  const ref = closedForm(2, 3, 5000, 0);
  await page.waitForFunction((p) => Math.abs(Number(document.querySelector('[data-testid="rr-p-truth"]').dataset.value) - p) < 1e-12, ref.p);
  assert.equal(await page.evaluate(() => history.length), historyBefore);
  assert.match(page.url(), /k=3&n=5000&truth=0\.5,0\.3,0\.2&reps=300&seed=7/, 'other keys are kept');
  await waitDrawn(page, 'rr-chart-frequencies', 2);

  await page.locator('[data-testid="slider-k"]').fill('5');
  await page.waitForFunction(() => document.querySelector('[data-testid="rr-estimate-4"]'));
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('k'), '5');
  assert.equal(url.searchParams.get('truth').split(',').length, 5, 'truth follows K');
  assert.equal(await page.locator('[data-testid="notices"], .field-error:not([hidden])').count(), 0);
  assert.deepEqual(page.problems, []);
});

test('a link with bad values shows messages and sane defaults, never a blank page', async () => {
  const page = await openLab(await newPage(browser), server.url,
    '?lab=rr&eps=abc&k=1&n=-5&truth=0.9,0.9&reps=NaN&seed=zz&cat=99');
  for (const key of ['eps', 'k', 'n', 'truth', 'reps', 'seed', 'cat'].filter((k) => k !== 'cat')) {
    const notice = page.locator(`[data-testid="notice-${key}"]`);
    assert.ok(await notice.isVisible(), `message for ${key}`);
    assert.match(await notice.innerText(), new RegExp(`^${key} = .*using .* instead\\.$`));
  }
  assert.equal(await page.inputValue('[data-testid="input-eps"]'), 'abc', 'the typed text stays visible');
  assert.ok(Math.abs(await valueOf(page, 'rr-p-truth') - Math.E / (1 + Math.E)) < 1e-12, 'ε falls back to 1');
  for (const chart of CHARTS) {
    await waitDrawn(page, chart);
    assert.ok(await canvasColours(page, chart) > 3);
  }
  for (const ugly of ['-1', '1e999', 'Infinity', '0', '101']) {
    await page.fill('[data-testid="input-eps"]', ugly);
    await page.waitForFunction((u) => new URLSearchParams(location.search).get('eps') === u, ugly);
    assert.ok(await page.locator('[data-testid="notice-eps"]').isVisible(), `ε = ${ugly}`);
  }
  assert.deepEqual(page.problems, []);
});

test('ten million respondents and fifty categories stay finite', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=rr&eps=0.5&k=50&n=1e7&reps=1000&seed=3');
  // 50 000 surveys × categories: the repetitions run in a worker; the status line empties when done.
  await page.waitForFunction(() => document.querySelector('[data-testid="rr-status"]')?.textContent === '', null, { timeout: 60_000 });
  for (const id of ['rr-estimate-49', 'rr-stderr-49', 'rr-empirical-sd-49']) {
    assert.ok(Number.isFinite(await valueOf(page, id)), id);
  }
  await waitDrawn(page, 'rr-chart-histogram');
  // Rows beyond the first 12 wait behind a button (their numbers are in the page all along).
  assert.equal(await page.locator('[data-testid="rr-estimate-49"]').isVisible(), false);
  assert.ok(await page.locator('[data-testid="rr-estimate-11"]').isVisible());
  await page.click('[data-testid="rr-table-all"]');
  assert.ok(await page.locator('[data-testid="rr-estimate-49"]').isVisible());
  assert.deepEqual(page.problems, []);
});

test('a small survey shows every respondent', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=rr&n=120&seed=5');
  await waitDrawn(page, 'rr-chart-respondents');
  assert.ok(await canvasColours(page, 'rr-chart-respondents') > 2);
  await page.click('[data-testid="rr-chart-respondents-show-data"]');
  // The table is printed once the details open (lazily): wait for it rather than racing it.
  await page.waitForFunction(() => (document.querySelector('[data-testid="rr-chart-respondents-data"]')?.textContent ?? '').trim().split('\n').length > 1);
  const csv = await page.locator('[data-testid="rr-chart-respondents-data"]').textContent();
  assert.equal(csv.trim().split('\n').length, 121);
  assert.deepEqual(page.problems, []);
});

test('population=fixed shows both standard errors and simulates the fixed one; a bad value falls back to iid', async () => {
  const FIXED = '?lab=rr&eps=3&k=2&n=1000&population=fixed&seed=7';
  const page = await openLab(await newPage(browser), server.url, FIXED);
  // The default truth for K = 2 is 0.3, 0.7: 300 and 700 of the 1000 people, so π_0 = 0.3 exactly.
  const pi = 0.3;
  const iid = closedForm(3, 2, 1000, pi).stderr;
  const fixed = fixedStderr(3, 2, 1000, pi);
  const seIid = await valueOf(page, 'rr-se-iid-0');
  const seFixed = await valueOf(page, 'rr-se-fixed-0');
  assert.ok(Math.abs(seIid - iid) < 1e-12 * iid, `i.i.d. SE: ${seIid} vs ${iid}`);
  assert.ok(Math.abs(seFixed - fixed) < 1e-12 * fixed, `fixed SE: ${seFixed} vs ${fixed}`);
  // The i.i.d. variance exceeds the fixed one by the variance of the drawn truth, π(1 − π)/n.
  assert.ok(Math.abs(seIid ** 2 - seFixed ** 2 - pi * (1 - pi) / 1000) < 1e-12, 'Var_iid − Var_fixed');
  assert.equal(await valueOf(page, 'rr-stderr-0'), seFixed, 'the simulated model is the fixed one');
  assert.equal(await page.inputValue('[data-testid="select-population"]'), 'fixed');
  // 200 repeated surveys of the same people spread as the fixed SE (within 30%: s/σ leaves it once in
  // 10⁸ runs, χ² with 199 degrees of freedom), less than half the i.i.d. one.
  const sd = await valueOf(page, 'rr-empirical-sd-0');
  assert.ok(Math.abs(sd / fixed - 1) < 0.3, `empirical sd ${sd} vs fixed ${fixed}`);
  assert.ok(sd < 0.6 * iid, `empirical sd ${sd} well below i.i.d. ${iid}`);
  await waitDrawn(page, 'rr-chart-histogram');

  // The control writes the link; switching back to i.i.d. brings back the i.i.d. SE.
  await page.selectOption('[data-testid="select-population"]', 'iid');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('population') === 'iid');
  await page.waitForFunction((v) => Math.abs(Number(document.querySelector('[data-testid="rr-stderr-0"]').dataset.value) - v) < 1e-12 * v, seIid);
  assert.match(page.url(), /eps=3&k=2&n=1000&population=iid&seed=7/, 'other keys are kept');
  assert.deepEqual(page.problems, []);

  const bad = await openLab(await newPage(browser), server.url, FIXED.replace('fixed', 'bogus'));
  const notice = bad.locator('[data-testid="notice-population"]');
  assert.ok(await notice.isVisible(), 'message for population');
  assert.match(await notice.innerText(), /^population = .*using iid instead\.$/);
  assert.equal(await bad.inputValue('[data-testid="select-population"]'), 'iid');
  assert.equal(await valueOf(bad, 'rr-stderr-0'), await valueOf(bad, 'rr-se-iid-0'));
  assert.ok(Math.abs(await valueOf(bad, 'rr-se-fixed-0') - fixed) < 1e-12 * fixed);
  await waitDrawn(bad, 'rr-chart-histogram');
  assert.deepEqual(bad.problems, []);
});

test('a survey too large to draw person by person says so', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=rr&n=1000');
  assert.match(await page.textContent('[data-testid="rr-respondents-omitted"]'), /at most 400 respondents/);
  assert.equal(await page.$('[data-testid="rr-chart-respondents"]'), null);
  assert.deepEqual(page.problems, []);
  await page.close();
});
