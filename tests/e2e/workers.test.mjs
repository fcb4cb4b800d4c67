// Browser tests of the worker pool (web/src/platform/pool.rs): results equal the single-threaded ones bit for
// bit, a job cancelled by a new link leaves no stale result, and workers start in the single-file build
// opened from file:// and in an iframe embedded by a page on another origin.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { launchBrowser, newPage, openLab, serveDist, valueOf } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const TANGENT_IDS = ['tdp-norm-tv', 'tdp-norm-tv-all', 'tdp-norm-log', 'tdp-norm-log-all', 'tdp-norm-w-tv-lower',
  'tdp-norm-w-tv-upper', 'tdp-norm-w-log', 'tdp-bound-tv', 'tdp-bound-log', 'tdp-actual-tv', 'tdp-dp-eps', 'tdp-mc-r',
  'tdp-mc-r-langevin'];

const settled = (page, frame = page) => frame.waitForFunction(
  () => document.querySelector('[data-testid="tdp-status"]')?.textContent === '' && document.querySelector('[data-testid="tdp-norm-tv"]'),
  null, { timeout: 120_000 });

/** Every tangent number as the page prints it in data-value (the full f64). */
const tangentValues = (page) => page.evaluate((ids) => Object.fromEntries(ids.map((id) =>
  [id, document.querySelector(`[data-testid="${id}"]`)?.getAttribute('data-value')])), TANGENT_IDS);

/** Every tangent number of `link` with each suffix appended, each from a fresh page once all is done. */
async function tangentRuns(link, suffixes) {
  const results = [];
  for (const suffix of suffixes) {
    const page = await openLab(await newPage(browser), server.url, `${link}${suffix}`, 'tdp-status');
    await settled(page);
    results.push(await tangentValues(page));
    assert.deepEqual(page.problems, []);
    await page.close();
  }
  for (const id of TANGENT_IDS) assert.ok(results[0][id] !== undefined && results[0][id] !== null, id);
  return results;
}

test('the tangent report is the same bit for bit on 1, 2 and 5 workers', async () => {
  const link = '?lab=tangent&model=linear2d&loss=savage&beta=8&n=400&seed=3&wgrid=-3:3:41&samples=300';
  const results = await tangentRuns(link, ['&threads=1', '&threads=2', '&threads=5']);
  assert.deepEqual(results[1], results[0]);
  assert.deepEqual(results[2], results[0]);
});

test('a report small enough for the page equals the pool\'s bit for bit', async () => {
  // Without `threads` the page computes this one itself (Plan::fits_on_page); with it, workers do.
  const link = '?lab=tangent&model=linear2d&loss=logistic&beta=5&n=60&seed=4&wgrid=-2:2:15&samples=300';
  const results = await tangentRuns(link, ['', '&threads=2']);
  assert.deepEqual(results[1], results[0]);
});

test('a new link cancels the running job: no stale result, and the new one comes at once', async () => {
  // The largest instance takes seconds; the link changes while it runs.
  const big = '?lab=tangent&model=linear2d&n=10000&wgrid=-3:3:200&seed=2';
  const page = await openLab(await newPage(browser), server.url, big, 'tdp-status');
  await page.waitForFunction(() => /tangent maps: [1-9]/.test(document.querySelector('[data-testid="tdp-status"]').textContent),
    null, { timeout: 60_000 });
  const start = Date.now();
  await page.fill('#field-beta', '3');
  await page.fill('#field-n', '200');
  await page.fill('#field-wgrid', '-3:3:21');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('wgrid') === '-3:3:21');
  await settled(page);
  const elapsed = Date.now() - start;
  const got = await tangentValues(page);
  // Give a cancelled job time to (wrongly) deliver, then check nothing changed.
  await page.waitForTimeout(1500);
  assert.deepEqual(await tangentValues(page), got, 'a result arrived after the new one');
  const fresh = await openLab(await newPage(browser), server.url, '?' + (await page.evaluate(() => location.search.slice(1))), 'tdp-status');
  await settled(fresh);
  assert.deepEqual(got, await tangentValues(fresh));
  assert.ok(elapsed < 5000, `the small link took ${elapsed} ms after the big one was cancelled`);
  assert.deepEqual(page.problems, []);
});

test('the single-file build computes in workers from file://', async () => {
  const page = await newPage(browser);
  const file = new URL('../../dist-single/dp-playground.html', import.meta.url);
  const link = '?lab=tangent&model=threshold&loss=savage&beta=20&n=200&seed=1&remove=3';
  await page.goto(file.href + link);
  await settled(page);
  // The native value of tests/e2e/tangent.test.mjs.
  assert.ok(Math.abs(await valueOf(page, 'tdp-norm-tv') / 3.517384878635603 - 1) < 1e-9);
  assert.deepEqual(page.problems, []);
});

test('a lab embedded in a page on another origin computes in workers', async () => {
  const html = `<!doctype html><title>Week 9</title>
    <iframe id="t" src="${server.url}?lab=tangent&model=threshold&loss=savage&beta=20&n=200&seed=1&remove=3&embed=1" style="width:900px;height:900px;border:0"></iframe>`;
  const host = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
  await new Promise((ok) => host.listen(0, '127.0.0.1', ok));
  try {
    const page = await newPage(browser);
    await page.goto(`http://127.0.0.1:${host.address().port}/course/week9.html`);
    const frame = page.frameLocator('#t');
    await frame.locator('[data-testid="tdp-norm-tv"]').waitFor({ timeout: 60_000 });
    const v = Number(await frame.locator('[data-testid="tdp-norm-tv"]').getAttribute('data-value'));
    assert.ok(Math.abs(v / 3.517384878635603 - 1) < 1e-9, `${v}`);
    assert.deepEqual(page.problems, []);
  } finally {
    await new Promise((ok) => host.close(ok));
  }
});

test('large RR repetitions run in a worker: the core\'s numbers, and a new link drops the old job', async () => {
  // src/labs/rr/report.rs pins this link's first category (split_run_keeps_the_numbers_of_the_single_run).
  const heavy = '?lab=rr&n=10000000&k=50&reps=1000&seed=1';
  const page = await openLab(await newPage(browser), server.url, heavy);
  const done = () => page.waitForFunction(
    () => document.querySelector('[data-testid="rr-status"]')?.textContent === ''
      && Number.isFinite(Number(document.querySelector('[data-testid="rr-empirical-sd-0"]')?.dataset.value)),
    null, { timeout: 60_000 });
  await done();
  assert.equal(await valueOf(page, 'rr-empirical-sd-0'), 0.0013649726930298034);
  // Another large link, then at once one small enough for the page: the first job is cancelled, and
  // its result, had it come, would not show.
  await page.evaluate(() => {
    history.replaceState(null, '', location.href.replace('seed=1', 'seed=2'));
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await page.evaluate(() => {
    history.replaceState(null, '', location.href.replace(/\?.*/, '?lab=rr&k=5&n=1000&reps=300&seed=7&population=fixed&cat=3'));
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await done();
  await page.waitForTimeout(1500);
  assert.equal(await valueOf(page, 'rr-empirical-sd-0'), 0.0523288462106485);
  assert.equal(await page.textContent('[data-testid="rr-status"]'), '');
  assert.deepEqual(page.problems, []);
  await page.close();
});
