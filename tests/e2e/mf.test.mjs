// The correlated-noise lab (`?lab=mf`): its numbers are jax_privacy's (tests/refs/mf_jax_privacy.json)
// at the Gaussian mechanism's σ, its chart draws, bad values fall back with a message, and T = 10⁵
// stays responsive.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { finiteValueOf, launchBrowser, newPage, openLab, serveDist, valueOf, waitDrawn } from './harness.mjs';

const REFS = JSON.parse(readFileSync(new URL('../refs/mf_jax_privacy.json', import.meta.url)));
let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

test('the default link: each strategy\'s RMSE is σ_G × √(jax_privacy\'s mean loss), and correlation pays', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=mf', 'mf-sigma-gaussian');
  const sigma = await valueOf(page, 'mf-sigma-gaussian');
  assert.ok(sigma > 3.5 && sigma < 5.5, `σ_G ${sigma}`);
  const loss = (name) => REFS.strategies_by_n['256'].strategies.find((s) => s.strategy === name).loss_mean;
  for (const [key, name] of [['independent', 'identity'], ['sqrt', 'toeplitz_sqrt'], ['tree', 'binary_tree_plain']]) {
    const rmse = await valueOf(page, `mf-rmse-${key}`);
    assert.ok(Math.abs(rmse / (sigma * Math.sqrt(loss(name))) - 1) < 1e-9, `${key}: ${rmse}`);
  }
  assert.ok(await valueOf(page, 'mf-rmse-sqrt') < 0.25 * await valueOf(page, 'mf-rmse-independent'));
  await waitDrawn(page, 'mf-error-chart');
  assert.match(await page.textContent('[data-testid="lab-headline"]'), /less\.$/);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('several passes raise the sensitivity; bad values fall back with a message; T = 10⁵ answers', async () => {
  let page = await openLab(await newPage(browser), server.url, '?lab=mf&steps=1024&epochs=4', 'mf-sigma-gaussian');
  assert.equal(await valueOf(page, 'mf-sens-independent'), 2);
  assert.ok(await valueOf(page, 'mf-sigma-sqrt') > await valueOf(page, 'mf-sigma-gaussian'));
  await page.close();
  page = await openLab(await newPage(browser), server.url, '?lab=mf&steps=abc&eps=-1&bands=0', 'mf-sigma-gaussian');
  const notices = await page.textContent('body');
  assert.match(notices, /steps/);
  assert.ok(Number.isFinite(await valueOf(page, 'mf-rmse-banded')));
  await page.close();
  // Beyond T = 2 000 the report is a worker's job: the page says so, then shows it.
  page = await openLab(await newPage(browser), server.url, '?lab=mf&steps=100000', 'mf-sigma-gaussian');
  await page.waitForFunction(() => Number.isFinite(Number(document.querySelector('[data-testid="mf-rmse-sqrt"]')?.dataset.value)), null, { timeout: 20_000 });
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('the BLT is optimised in the worker and beats the square root; heat maps draw', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=mf&matrix=blt', 'mf-sigma-gaussian');
  await page.waitForSelector('[data-testid="mf-rmse-blt"]', { timeout: 20_000 });
  assert.ok(await valueOf(page, 'mf-rmse-blt') < await valueOf(page, 'mf-rmse-sqrt'));
  assert.match(await page.textContent('[data-testid="mf-blt-status"]'), /buffers, decays/);
  await waitDrawn(page, 'mf-chart-c');
  await waitDrawn(page, 'mf-chart-b');
  // Honaker's estimator halves the tree's top-level variance: a lower RMSE at the same σ.
  assert.ok(await valueOf(page, 'mf-rmse-honaker') < await valueOf(page, 'mf-rmse-tree'));
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('sampling amplifies BandMF by the PLD; the tree keeps its unamplified σ; a ρ target', async () => {
  let page = await openLab(await newPage(browser), server.url, '?lab=mf&steps=1000&epochs=4&q=0.05&eps=2&delta=0.00001', 'mf-sigma-gaussian');
  await page.waitForFunction(() => /amplified BandMF/.test(document.querySelector('[data-testid="mf-amp-banded"]')?.textContent ?? ''), null, { timeout: 20_000 });
  assert.ok(await valueOf(page, 'mf-eps-banded') <= 2);
  assert.ok(await valueOf(page, 'mf-sigma-banded') < await valueOf(page, 'mf-sigma-tree'));
  assert.match(await page.textContent('[data-testid="mf-amp-tree"]'), /not known/);
  await page.close();
  page = await openLab(await newPage(browser), server.url, '?lab=mf&rho=0.125', 'mf-sigma-gaussian');
  const sigma = await valueOf(page, 'mf-sigma-gaussian');
  assert.ok(sigma >= 2 && sigma < 2 * (1 + 1e-12), `σ_G ${sigma}`);
  assert.match(await page.textContent('[data-testid="lab-headline"]'), /ρ = 0\.125/);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('the training lab compares DP-SGD and correlated noise at each certified ε of a sweep', async () => {
  const link = '?lab=train&data=breast-cancer&epochs=1&batch=32&seeds=2&compare=bandmf:4,blt&compare_eps=0.5,2';
  const page = await openLab(await newPage(browser), server.url, link, 'train-compare');
  for (const target of [0.5, 2]) {
    for (const mech of ['dpsgd', 'bandmf-4', 'blt']) {
      const key = `${mech}-${target}`;
      await page.waitForSelector(`[data-testid="train-compare-acc-${key}"]`, { timeout: 60_000 });
      const eps = await valueOf(page, `train-compare-eps-${key}`);
      assert.ok(eps <= target && eps > 0.9 * target, `${key}: ε ${eps}`);
      assert.ok(await valueOf(page, `train-compare-acc-${key}`) > 0.7, key);
    }
  }
  await waitDrawn(page, 'train-chart-compare');
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('the training lab\'s main run with correlated noise states the run\'s own guarantee', async () => {
  // The tree: batches in a fixed order, its ε the Gaussian's at σ/Δ, exact; the headline says it.
  const tree = await openLab(await newPage(browser), server.url, '?lab=train&mech=tree&epochs=2', 'train-eps-correlated');
  const eps = await finiteValueOf(tree, 'train-eps-correlated');
  assert.ok(await valueOf(tree, 'train-mf-sensitivity') > 1, 'two epochs raise Δ');
  await tree.waitForFunction(() => document.querySelector('[data-testid="train-steps"]')?.dataset.value
    === document.querySelector('[data-testid="train-planned-steps"]')?.dataset.value, null, { timeout: 60_000 });
  const headline = await tree.textContent('[data-testid="lab-headline"]');
  assert.match(headline, /exactly, as the Gaussian mechanism at σ\/Δ/);
  const shown = Number(headline.match(/ε ≤ ([0-9.]+)/)[1]);
  assert.ok(shown >= eps && shown < eps * 1.001, `${shown} against ${eps}`);
  assert.ok(await valueOf(tree, 'train-acc-test') > 0.8);
  assert.deepEqual(tree.problems, []);
  await tree.close();
  // BandMF: amplified, its ε the PLD's for ⌈T/b⌉ rounds, which the cards account.
  const band = await openLab(await newPage(browser), server.url, '?lab=train&mech=bandmf:4&epochs=2', 'train-eps-correlated');
  const pld = await finiteValueOf(band, 'train-eps');
  await band.waitForFunction(() => Number(document.querySelector('[data-testid="train-eps-correlated"]')?.dataset.value) > 0);
  assert.equal(await valueOf(band, 'train-eps-correlated'), pld);
  assert.match(await band.textContent('[data-testid="lab-headline"]'), /amplified BandMF/);
  assert.deepEqual(band.problems, []);
  await band.close();
});
