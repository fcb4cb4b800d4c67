// Browser tests of the tangent DP lab. References: the native computation of the same links
// (`cargo run --release --example tangent_report -- '<query>'`), and the Theorem 3.3 counterexample of
// src/tangent/norms_tests.rs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, newPage, openLab, serveDist, valueOf, waitDrawn, canvasColours } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const settled = (page) => page.waitForFunction(
  () => document.querySelector('[data-testid="tdp-status"]')?.textContent === '' && document.querySelector('[data-testid="tdp-norm-tv"]'),
  null, { timeout: 90_000 });
const close = (got, want, rel, what) => assert.ok(Math.abs(got - want) <= rel * Math.abs(want), `${what}: ${got} vs ${want}`);

async function expectValues(page, want) {
  for (const [id, v] of Object.entries(want)) close(await valueOf(page, id), v, 1e-9, id);
}

test('threshold model, Savage loss: every norm, bound and removal number equals the native computation', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=tangent&model=threshold&loss=savage&beta=20&n=200&seed=1&remove=3', 'tdp-status');
  await settled(page);
  await expectValues(page, {
    'tdp-norm-tv-all': 3.517509966150607, 'tdp-norm-tv': 3.517384878635603, 'tdp-bound-tv': 35.24917699593228,
    'tdp-norm-log-all': 13.588184348830321, 'tdp-norm-log': 13.533375552306575, 'tdp-bound-log': 39.80243470208022,
    'tdp-norm-w-tv-lower': 1.1059031044951204, 'tdp-norm-w-tv-upper': 1.267263104494427, 'tdp-bound-w-tv': 5.818308994833256,
    'tdp-norm-w-log': 3.0343015591434233, 'tdp-bound-w-log': 6.943096245898888,
    'tdp-actual-tv': 0.013816363254260857, 'tdp-actual-log': 0.04504428507927649,
    'tdp-linear-tv': 0.013797174977284799, 'tdp-linear-log': 0.04518924971077573, 'tdp-dp-eps': 0.1990121735104011,
  });
  // The grid Monte Carlo estimate lies within its stated simultaneous error of the exact R.
  const exact = 0.881229424898307;
  const est = await valueOf(page, 'tdp-mc-r');
  const label = await page.textContent('.stat:has([data-testid="tdp-mc-r"]) .stat-label');
  const h = Number(/± ([\d.e-]+)/.exec(label)[1]);
  assert.ok(Math.abs(est - exact) <= h, `MC ${est} vs ${exact} ± ${h}`);
  assert.ok(Number.isFinite(await valueOf(page, 'tdp-mc-r-langevin')));
  for (const id of ['tdp-chart-data', 'tdp-chart-q', 'tdp-chart-map', 'tdp-chart-beta-tv', 'tdp-chart-beta-log', 'tdp-chart-count', 'tdp-chart-mc', 'tdp-chart-langevin']) {
    await waitDrawn(page, id);
    assert.ok(await canvasColours(page, id) > 3, id);
  }
  console.log(`tangent lab, default-size link: report in ${await valueOf(page, 'tdp-ms')} ms in the browser`);
  assert.deepEqual(page.problems, []);
});

test('2-D model, tangent loss: the numbers match native, and a slider move recomputes in place', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=tangent&model=linear2d&loss=tangent&beta=5&n=300&seed=7&wgrid=-2:2:31', 'tdp-status');
  await settled(page);
  await expectValues(page, {
    'tdp-norm-tv-all': 10.99530933983859, 'tdp-norm-tv': 6.306441227496215, 'tdp-bound-tv': 66.51836678033425,
    'tdp-norm-log-all': 73.21750140647615, 'tdp-norm-w-tv-lower': 1.9413471968514007, 'tdp-norm-w-tv-upper': 2.8759869628736516,
    'tdp-norm-w-log': 30.048494000595724, 'tdp-bound-w-log': 56.42685130683926, 'tdp-dp-eps': 0.5223020565354163,
  });
  await waitDrawn(page, 'tdp-chart-q');
  const before = await page.evaluate(() => history.length);
  await page.fill('#field-beta', '10');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('beta') === '10');
  await settled(page);
  assert.equal(await page.evaluate(() => history.length), before);
  assert.ok(await valueOf(page, 'tdp-norm-tv-all') <= await valueOf(page, 'tdp-bound-tv'));
  assert.deepEqual(page.problems, []);
});

test('the Theorem 3.3 counterexample is flagged on the page', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=tangent&model=linear2d&loss=logistic&beta=1&data=0:1,0:-1&wgrid=-1:1:3&xgrid=-1:1:2', 'tdp-status');
  await settled(page);
  assert.ok(await valueOf(page, 'tdp-norm-w-tv-lower') > 0.01);
  assert.ok(await valueOf(page, 'tdp-bound-w-tv') < 1e-12);
  assert.match(await page.textContent('[data-testid="tdp-thm33-note"]'), /fails on this instance/);
  assert.ok(await page.locator('[data-testid="tdp-bound-w-tv"].over').count() === 1);
  assert.deepEqual(page.problems, []);
});

test('mangled links fall back with messages and never show NaN', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=tangent&model=cnn&loss=l2&beta=NaN&n=0&data=1:5&wgrid=3:1:4&remove=-2&samples=1e9', 'tdp-status');
  for (const key of ['model', 'loss', 'beta', 'n', 'data', 'wgrid', 'remove', 'samples']) {
    assert.ok(await page.isVisible(`[data-testid="tdp-notices"] li[data-key="${key}"]`), key);
  }
  await settled(page);
  assert.ok(!/NaN/.test(await page.textContent('.results')));
  close(await valueOf(page, 'tdp-norm-tv-all'), 3.517509966150607, 1e-9, 'defaults in use');
  assert.deepEqual(page.problems, []);
});
