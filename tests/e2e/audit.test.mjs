// Browser tests of the training lab's audit (issue 28): many private runs with and without a canary in
// the worker pool, the ε the attack proves beside the ε the accountant certifies, and a planted bug the
// audit catches.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, newPage, openLab, serveDist, valueOf, waitDrawn } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const done = (page) => page.waitForFunction(
  () => Number.isFinite(parseFloat(document.querySelector('[data-testid="train-audit-eps-cp"]')?.dataset.value)),
  null, { timeout: 120_000 });

test('an audit of the correct DP-SGD proves less than the accountant certifies', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=train&audit=runs&runs=100', 'train-q');
  await done(page);
  const [runs, cp, gdp, theory, last, tpr, auc] = await Promise.all(['train-audit-runs', 'train-audit-eps-cp',
    'train-audit-eps-gdp', 'train-audit-eps-theory', 'train-audit-eps-last-iterate', 'train-audit-tpr-low-fpr',
    'train-audit-auc'].map((id) => valueOf(page, id)));
  assert.equal(runs, 100);
  assert.ok(cp >= 0 && cp <= theory, `lower bound ${cp}, certified ${theory}`);
  assert.equal(theory, await valueOf(page, 'train-eps'), 'the same certified ε as the lab\'s');
  assert.equal(await page.getAttribute('[data-testid="train-audit-eps-theory"]', 'data-sampler'), 'poisson');
  assert.ok(last > 0 && last <= theory, `last iterate ${last}`);
  assert.ok(gdp >= 0 && tpr >= 0 && tpr <= 1 && auc >= 0.5 && auc <= 1);
  assert.equal(await page.getAttribute('[data-testid="train-audit-contradiction"]', 'data-value'), '0');
  assert.match(await page.textContent('[data-testid="train-audit-contradiction"]'), /proves ε ≥ .* with 95% confidence/);
  await waitDrawn(page, 'train-audit-chart-scores');
  await waitDrawn(page, 'train-audit-chart-roc');
  // The best threshold's counts go to the attack lab, which draws them on the certified curve.
  const href = await page.getAttribute('[data-testid="train-audit-attack-link"]', 'href');
  assert.match(href, /lab=attack&.*&tp=\d+&fn=\d+&fp=\d+&tn=\d+&conf=0\.95$/);
  const attack = await openLab(await newPage(browser), server.url, href, 'attack-beta-at-alpha');
  await attack.waitForFunction(() => Number.isFinite(parseFloat(document.querySelector('[data-testid="audit-eps-lower"]')?.dataset.value)));
  assert.deepEqual([...page.problems, ...attack.problems], []);
  await attack.close();
  await page.close();
});

test('the page\'s bug audits catch noise added to the mean, an unclipped outlier and the realised batch', async () => {
  for (const bug of ['mean-noise', 'unclipped', 'realised-batch']) {
    const page = await openLab(await newPage(browser), server.url, '?lab=train', 'train-q');
    await page.click(`[data-testid="train-audit-try-${bug}"]`);
    await done(page);
    assert.equal(await page.getAttribute('[data-testid="train-audit-contradiction"]', 'data-value'), '1', bug);
    assert.ok(await valueOf(page, 'train-audit-eps-cp') > await valueOf(page, 'train-audit-eps-theory'), bug);
    assert.match(await page.textContent('[data-testid="train-audit-contradiction"]'), /Contradiction/);
    assert.deepEqual(page.problems, []);
    await page.close();
  }
});

test('without audit=runs the section only offers to start one', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=train', 'train-q');
  await page.waitForSelector('[data-testid="train-audit"]', { state: 'attached' });
  assert.ok(!(await page.isVisible('[data-testid="train-audit-eps-cp"]')));
  await page.selectOption('[data-testid="select-audit"]', 'runs');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('audit') === 'runs');
  await page.fill('[data-testid="input-runs"]', '40');
  await done(page);
  assert.equal(await valueOf(page, 'train-audit-runs'), 40);
  assert.deepEqual(page.problems, []);
  await page.close();
});

// Issue 53: the audit trained with Poisson batches whatever the sampler, beside the sampler's ε.
test('the audit runs the link\'s sampler and is set beside that sampler\'s own ε, named', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=train&audit=runs&runs=20&steps=60&sampler=shuffle', 'train-q');
  await done(page);
  const theory = '[data-testid="train-audit-eps-theory"]';
  await page.waitForFunction(() => Number.isFinite(parseFloat(document.querySelector('[data-testid="train-eps-sampler"]')?.dataset.value)), null, { timeout: 60_000 });
  assert.equal(await page.getAttribute(theory, 'data-sampler'), 'shuffle');
  assert.equal(await page.getAttribute(theory, 'data-kind'), 'lower');
  assert.equal(await valueOf(page, 'train-audit-eps-theory'), await valueOf(page, 'train-eps-sampler'));
  assert.match(await page.textContent('[data-testid="train-audit"]'), /lower bound: no upper bound is known; the audit's runs drew shuffled each epoch batches/);
  assert.equal(await page.getAttribute('[data-testid="train-audit-contradiction"]', 'data-value'), '0');
  assert.match(await page.textContent('[data-testid="train-audit-contradiction"]'), /no certified upper bound/);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('one run with many canaries proves a lower bound from one training run', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=train&audit=one-run&canaries=200', 'train-q');
  await page.waitForFunction(() => Number.isFinite(parseFloat(document.querySelector('[data-testid="train-audit-eps-one-run"]')?.dataset.value)), null, { timeout: 120_000 });
  const [one, fdp, theory, joined] = await Promise.all(['train-audit-eps-one-run', 'train-audit-eps-one-run-fdp',
    'train-audit-eps-theory-one-run', 'train-audit-canaries-in'].map((id) => valueOf(page, id)));
  assert.ok(one >= 0 && one <= theory && fdp >= 0 && fdp <= theory, `${one}, ${fdp} vs ${theory}`);
  assert.ok(joined > 50 && joined < 150, `${joined} of 200 canaries joined`);
  assert.ok(!(await page.isVisible('[data-testid="train-audit-eps-cp"]')), 'the many-runs numbers stay hidden');
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('a canary the user places: its features from the link, a misfit refused in words', async () => {
  const page = await openLab(await newPage(browser), server.url,
    '?lab=train&data=gaussians&audit=runs&canary=point&canary_at=4,4&canary_label=0&threat=final&runs=40', 'train-q');
  await done(page);
  assert.equal(await page.inputValue('[data-testid="input-canary_at"]'), '4,4');
  const [cp, theory, tpr1] = await Promise.all(['train-audit-eps-cp', 'train-audit-eps-theory', 'train-audit-tpr-1pct-fpr'].map((id) => valueOf(page, id)));
  assert.ok(cp <= theory && tpr1 >= 0 && tpr1 <= 1);
  await page.fill('[data-testid="input-canary_at"]', '1,2,3');
  await page.waitForFunction(() => /lists 3 features; the data have 2/.test(document.querySelector('[data-testid="train-audit-status"]')?.textContent ?? ''));
  await page.fill('[data-testid="input-canary_at"]', 'x');
  assert.ok(await page.isVisible('[data-testid="notice-canary_at"]'));
  assert.deepEqual(page.problems, []);
  await page.close();
});
