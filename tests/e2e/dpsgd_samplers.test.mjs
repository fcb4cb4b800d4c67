// Browser tests of the DP-SGD lab's batch samplers (issue 27, item 1): the chosen sampler's ε and its
// kind, the table of all seven computed in the worker pool, the shuffling warning, σ for a target.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, newPage, openLab, serveDist, valueOf } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const KEYS = ['poisson', 'shuffle', 'shuffle-once', 'cyclic', 'balls', 'fixed', 'truncated'];
const tableDone = (page) => page.waitForFunction(
  (keys) => keys.every((k) => document.querySelector(`[data-testid="dpsgd-sampler-table-${k}"]`)?.dataset.kind),
  KEYS, { timeout: 120_000 });
const rowValue = (page, key) => page.$eval(`[data-testid="dpsgd-sampler-table-${key}"]`, (el) => parseFloat(el.dataset.value));
const close = (a, b, rel = 1e-9) => Math.abs(a / b - 1) < rel;

test('Abadi et al.\'s MNIST with a shuffling loader: a lower bound, four times the Poisson ε, and the warning', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=dpsgd&sampler=shuffle', 'dpsgd-eps-rdp');
  await tableDone(page);
  assert.equal(await page.$eval('[data-testid="dpsgd-sampler-side"]', (el) => el.dataset.value), 'lower');
  const eps = await valueOf(page, 'dpsgd-sampler-eps');
  // The core's value natively (tests/samplers.rs reads the same function; scipy + dp_accounting give
  // 10.872 with their coarser rounding, tests/reference/samplers.rs).
  assert.ok(close(eps, 10.875071867009131, 1e-6), `shuffled ε ≥ ${eps}`);
  assert.equal(await valueOf(page, 'dpsgd-sampler-eps-lower'), eps);
  assert.ok(!Number.isFinite(await valueOf(page, 'dpsgd-sampler-eps-upper')));
  assert.ok(!Number.isFinite(await valueOf(page, 'dpsgd-sampler-sigma')));
  // The Poisson row is the lab's PLD band; cyclic is exact (the Gaussian at σ/√61, mpmath 54.706952).
  assert.equal(await rowValue(page, 'poisson'), await valueOf(page, 'dpsgd-eps-pld'));
  assert.ok(Math.abs(await rowValue(page, 'cyclic') - 54.706952) < 1e-5);
  assert.equal(await page.$eval('[data-testid="dpsgd-sampler-table-cyclic"]', (el) => el.dataset.kind), 'exact');
  assert.ok(close(await rowValue(page, 'fixed'), 14.718953640184456, 1e-6));
  const warning = await page.textContent('[data-testid="dpsgd-sampler-warning"]');
  assert.match(warning, /at least 10\.9/);
  assert.match(warning, /2\.38/);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('picking a sampler writes the link; fixed size gives a certified band and σ for the target', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=dpsgd&q=0.02&sigma=1&steps=500&target_eps=3', 'dpsgd-eps-rdp');
  await page.waitForSelector('[data-testid="select-sampler"]');
  await page.selectOption('[data-testid="select-sampler"]', 'fixed');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('sampler') === 'fixed');
  await page.waitForFunction(() => Number.isFinite(parseFloat(document.querySelector('[data-testid="dpsgd-sampler-sigma"]')?.dataset.value)), null, { timeout: 120_000 });
  assert.equal(await page.$eval('[data-testid="dpsgd-sampler-side"]', (el) => el.dataset.value), 'upper');
  const [lower, upper] = [await valueOf(page, 'dpsgd-sampler-eps-lower'), await valueOf(page, 'dpsgd-sampler-eps-upper')];
  assert.ok(lower <= upper && upper === await valueOf(page, 'dpsgd-sampler-eps'), `${lower} ${upper}`);
  // Fixed size under add/remove is the Poisson pair at σ/2: σ for the target is twice Poisson's.
  const sigma = await valueOf(page, 'dpsgd-sampler-sigma');
  assert.ok(sigma > 1, `σ ${sigma}`);
  await page.click('[data-testid="dpsgd-sampler-use-sigma"]');
  await page.waitForFunction((s) => Math.abs(parseFloat(new URLSearchParams(location.search).get('sigma')) / s - 1) < 1e-5, sigma);
  await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid="dpsgd-sampler-eps"]')?.dataset.value) <= 3, null, { timeout: 120_000 });
  assert.equal(await page.$('[data-testid="dpsgd-sampler-warning"]'), null);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('balls in bins at Abadi et al.\'s settings: a certified upper bound just below Poisson, and σ for a target', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=dpsgd&sampler=balls&target_eps=2', 'dpsgd-eps-rdp');
  await tableDone(page);
  assert.equal(await page.$eval('[data-testid="dpsgd-sampler-side"]', (el) => el.dataset.value), 'upper');
  assert.equal(await page.$eval('[data-testid="dpsgd-sampler-table-balls"]', (el) => el.dataset.kind), 'upper');
  const [eps, lower, upper] = [await valueOf(page, 'dpsgd-sampler-eps'), await valueOf(page, 'dpsgd-sampler-eps-lower'), await valueOf(page, 'dpsgd-sampler-eps-upper')];
  // The core's value natively (tests/allocation.rs: the exact law of an epoch's likelihood ratio over
  // ⌈T/b⌉ = 61 epochs), under the Poisson band's upper end (2.3818) and above the largest-batch-sum bound.
  assert.ok(close(eps, 2.3624334473642508, 1e-6), `balls ε ≤ ${eps}`);
  assert.equal(upper, eps);
  assert.ok(lower < upper && upper < await valueOf(page, 'dpsgd-eps-pld'), `${lower} ${upper}`);
  await page.waitForFunction(() => Number.isFinite(parseFloat(document.querySelector('[data-testid="dpsgd-sampler-sigma"]')?.dataset.value)), null, { timeout: 120_000 });
  const sigma = await valueOf(page, 'dpsgd-sampler-sigma');
  assert.ok(sigma > 1.1 && sigma < 1.3, `σ ${sigma}`);
  assert.equal(await page.$('[data-testid="dpsgd-sampler-warning"]'), null);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('truncated Poisson at Abadi et al.\'s settings: the cap 10% above the mean batch, a certified band, and the cap in the link', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=dpsgd&sampler=truncated', 'dpsgd-eps-rdp');
  await tableDone(page);
  assert.equal(await page.$eval('[data-testid="dpsgd-sampler-side"]', (el) => el.dataset.value), 'upper');
  // The core's values natively (tests/truncated.rs: B = ⌈1.1·256⌉ = 282; dp_accounting's build of the
  // same pair gives 5.2521224, its TruncatedSubsampledGaussianDpEvent 5.588).
  const [lower, upper] = [await valueOf(page, 'dpsgd-sampler-eps-lower'), await valueOf(page, 'dpsgd-sampler-eps-upper')];
  assert.ok(close(upper, 5.252412976378428, 1e-6), `upper ${upper}`);
  assert.ok(close(lower, 2.3471022094045173, 1e-6), `lower ${lower}`);
  assert.equal(await valueOf(page, 'dpsgd-sampler-eps'), upper);
  assert.equal(await rowValue(page, 'truncated'), upper);
  assert.equal(await page.inputValue('[data-testid="input-cap"]'), '282');
  // A cap no batch reaches: the Poisson band's upper end.
  await page.fill('[data-testid="input-cap"]', '60000');
  await page.press('[data-testid="input-cap"]', 'Enter');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('cap') === '60000');
  const poisson = await valueOf(page, 'dpsgd-eps-pld');
  await page.waitForFunction((p) => parseFloat(document.querySelector('[data-testid="dpsgd-sampler-eps"]')?.dataset.value) === p, poisson, { timeout: 120_000 });
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('a sampler the lab does not know falls back to Poisson with a notice', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=dpsgd&sampler=sometimes&sigma=0.001', 'dpsgd-eps-rdp');
  assert.ok(await page.isVisible('[data-testid="notice-sampler"]'));
  await tableDone(page).catch(() => {});
  await page.waitForSelector('[data-testid="dpsgd-sampler-side"]');
  assert.ok(!/NaN/.test(await page.textContent('[data-testid="dpsgd-samplers"]')));
  await page.close();
});

test('the training lab trains with shuffled batches and shows their own ε, a lower bound', async () => {
  // stop=1 cannot hold without an upper bound: it is dropped with a notice, and the run takes all its steps.
  const page = await openLab(await newPage(browser), server.url, '?lab=train&sampler=shuffle&epochs=5&stop=1', 'train-q');
  await page.waitForFunction(() => document.querySelector('[data-testid="train-eps-sampler-side"]')?.dataset.value === 'lower', null, { timeout: 120_000 });
  const eps = await valueOf(page, 'train-eps-sampler');
  assert.ok(Number.isFinite(eps) && eps > 0, `shuffled ε ≥ ${eps}`);
  assert.match(await page.textContent('[data-testid="train-sampler"]'), /do not apply/);
  assert.match(await page.textContent('[data-testid="notice-stop"]'), /only a lower bound/);
  // The headline states the run's own ε as what it is, not the Poisson accountants' bound.
  assert.match(await page.textContent('[data-testid="lab-headline"]'), /ε ≥ .*lower bound/);
  // No certified accountant, so no "spent so far".
  assert.ok(Number.isNaN(await valueOf(page, 'train-eps-now')));
  assert.equal(await page.$eval('[data-testid="select-sampler"]', (el) => el.value), 'shuffle');
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('the training lab stops fixed-size batches at the target by their own certified ε', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=train&sampler=fixed&sigma=4&epochs=20&stop=1&target_eps=3', 'train-q');
  await page.waitForFunction(() => document.querySelector('[data-testid="train-eps-sampler-side"]')?.dataset.value === 'upper', null, { timeout: 120_000 });
  const [planned, own] = [await valueOf(page, 'train-planned-steps'), await valueOf(page, 'train-eps-sampler')];
  assert.ok(planned > 0 && own <= 3, `stops after ${planned} steps at ε ≤ ${own}`);
  assert.match(await page.textContent('[data-testid="lab-headline"]'), /ε ≤ .*certified for this run's sampler/);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('issue 48: a shuffled run never reads "certified" on the Poisson number alone (headline, Markdown, snippet)', async () => {
  const link = '?lab=dpsgd&epochs=10&target_eps=3&sigma=0.693734&sampler=shuffle';
  const page = await openLab(await newPage(browser), server.url, link, 'dpsgd-eps-rdp');
  await tableDone(page);
  await page.waitForFunction(() => /no certified upper bound is known/.test(document.querySelector('[data-testid="lab-headline"]')?.textContent ?? ''), null, { timeout: 120_000 });
  const headline = await page.textContent('[data-testid="lab-headline"]');
  const lower = await valueOf(page, 'dpsgd-sampler-eps');
  // The sampler's own lower bound leads, rounded down; the PLD's number follows with its condition.
  const shown = parseFloat(headline.match(/ε ≥ ([0-9.]+)/)[1]);
  assert.ok(shown <= lower && lower - shown < 0.01 * lower, `${shown} vs ${lower}`);
  assert.match(headline, /batches shuffled each epoch/);
  assert.match(headline, /holds only for Poisson sampling/);
  const pld = await valueOf(page, 'dpsgd-eps-pld');
  const pldShown = parseFloat(headline.match(/ε ≤ ([0-9.]+)/)[1]);
  assert.ok(pldShown >= pld, `the PLD's ${pld} shown as ${pldShown}`);
  await page.click('[data-testid="share-open"]');
  await page.waitForSelector('[data-testid="share-markdown"]');
  await page.waitForFunction(() => !/computing/.test(document.querySelector('[data-testid="share-markdown"]')?.value ?? 'computing'), null, { timeout: 120_000 });
  const md = await page.inputValue('[data-testid="share-markdown"]');
  for (const line of md.split('\n').filter((l) => /PLD accountant \(certified/.test(l))) {
    assert.match(line, /holds only for Poisson sampling/, line);
  }
  assert.match(md, /lower bound; no certified upper bound is known/);
  assert.match(md, /RDP on dp_accounting's orders/);
  const snippet = await page.inputValue('[data-testid="share-snippet"]');
  assert.match(snippet, /NOT a guarantee for this run/);
  assert.deepEqual(page.problems, []);
  await page.close();
});
