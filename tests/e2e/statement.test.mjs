// Browser tests of the guarantee statement (issue 49): each accounting lab writes its statement from the
// page's own guarantee (the same full-precision ε as the headline's card), with its JSON record, other
// scales, Python and the deployments; a run with no certified bound states none.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { canvasColours, finiteValueOf, launchBrowser, newPage, openLab, serveDist, waitDrawn } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Opens the statement panel and waits until its other scales are done (or not to be had). */
async function openStatement(page) {
  await page.click('[data-testid="statement-open"]');
  await page.waitForFunction(() => {
    const t = document.querySelector('[data-testid="statement-text"]');
    return t && t.dataset.scales !== 'pending';
  }, null, { timeout: 90_000 });
  const el = await page.$('[data-testid="statement-text"]');
  return {
    text: await el.textContent(),
    eps: Number(await el.getAttribute('data-value')),
    certified: (await el.getAttribute('data-certified')) === 'true',
    json: JSON.parse(await page.textContent('[data-testid="statement-json"]')),
  };
}

test("the practitioner's run: the DP-SGD lab's certified ε, in a paragraph, a record and Python", async () => {
  const page = await openLab(await newPage(browser), server.url,
    '?lab=dpsgd&n=60000&batch=256&epochs=10&sigma=0.693734&delta=1e-5&target_eps=3', 'dpsgd-eps-rdp');
  const pld = await finiteValueOf(page, 'dpsgd-eps-pld', 90_000);
  const s = await openStatement(page);
  assert.equal(s.eps, pld, 'the statement states the card\'s ε, full precision');
  assert.ok(s.certified);
  assert.equal(s.json.schema, 'dp-playground.statement/1');
  assert.equal(s.json.epsilon.value, pld);
  assert.ok(Number(s.json.epsilon.shown) >= pld, 'shown digits round up');
  for (const needle of ['Unit of privacy: one record', 'Poisson sampling', 'noise multiplier σ = 0.6937', `ε ≤ ${s.json.epsilon.shown}`,
    'hyper-parameter tuning', 'commit', 'μ-GDP with μ ≤']) {
    assert.ok(s.text.includes(needle), `${needle}: ${s.text}`);
  }
  // The other scales, each a certified upper bound, match the record.
  const mu = Number(await page.getAttribute('[data-testid="statement-mu"]', 'data-value'));
  assert.equal(mu, s.json.scales.mu);
  assert.ok(mu > 0.5 && mu < 1.2, `μ ${mu}`);
  const tpr = Number(await page.getAttribute('[data-testid="statement-tpr-1"]', 'data-value'));
  assert.ok(tpr > 0.01 && tpr < 0.2, `TPR ${tpr}`);
  // The Python names the numbers it reproduces; jax_privacy takes this run (batch 256 of 60 000).
  const python = await page.textContent('[data-testid="statement-python"]');
  for (const key of ['rdp_eps', 'pld_eps', 'opacus_rdp_eps', 'jax_privacy_eps']) assert.ok(python.includes(`"${key}"`), key);
  assert.ok(python.includes('batch_size=256, num_samples=60000'));
  // Deployments, each cited, with this run among them.
  await page.click('[data-testid="statement-deployments"] summary');
  await page.waitForSelector('[data-testid="deployment-census-2020-redistricting"]', { timeout: 60_000 });
  await page.waitForSelector('[data-testid="deployment-own"]');
  const links = await page.$$eval('[data-testid="statement-deployments"] a', (as) => as.map((a) => a.href));
  assert.ok(links.length >= 7 && links.every((h) => h.startsWith('https://')), links.join(' '));
  // The run drawn among them.
  await waitDrawn(page, 'statement-chart');
  assert.ok(await canvasColours(page, 'statement-chart') > 3);
  assert.deepEqual(page.problems, []);
});

test('a sampler with no certified upper bound: the statement says what is known and certifies nothing', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=dpsgd&sampler=shuffle', 'dpsgd-eps-rdp');
  const s = await openStatement(page);
  assert.equal(s.certified, false);
  assert.match(s.text, /no certified ε/);
  assert.equal(s.json.scales, null);
  assert.equal(await page.$('[data-testid="statement-mu"]'), null, 'no other scales without a certified curve');
  assert.deepEqual(page.problems, []);
});

test('users of several records: the unit is the user, certified by the user-level accountant', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=dpsgd&users=4', 'dpsgd-eps-rdp');
  const s = await openStatement(page);
  assert.ok(s.certified, s.text);
  assert.match(s.text, /one user, who may hold up to 4 records/);
  assert.equal(s.json.unit.kind, 'user');
  assert.equal(s.json.epsilon.accountant, 'UserLevel');
  assert.ok(!s.json.not_covered.some((c) => c.id === 'several-records'));
  assert.deepEqual(page.problems, []);
  // Tuning: the best of K runs, certified by Papernot & Steinke's bound, and covered.
  const tuned = await openLab(await newPage(browser), server.url, '?lab=dpsgd&tuning=poisson:5', 'dpsgd-eps-rdp');
  const t = await openStatement(tuned);
  assert.ok(t.certified, t.text);
  assert.equal(t.json.epsilon.accountant, 'Tuning');
  assert.ok(t.json.covered.some((c) => c.id === 'tuning') && !t.json.not_covered.some((c) => c.id === 'tuning'));
  assert.match(t.text, /best of K training runs/);
  assert.deepEqual(tuned.problems, []);
});

test('the training, composition and mechanisms labs state their own guarantees', async () => {
  let page = await openLab(await newPage(browser), server.url, '?lab=train', 'train-q');
  const eps = await finiteValueOf(page, 'train-eps', 90_000);
  let s = await openStatement(page);
  assert.equal(s.eps, eps);
  assert.ok(s.text.includes('to L2 norm C = 1') && s.text.includes('standardisation of features'), s.text);
  assert.equal(s.json.not_covered.some((c) => c.id === 'standardisation'), true);

  page = await openLab(await newPage(browser), server.url, '?lab=compose&list=gauss:3*10,lap:0.2*5&delta=1e-5', 'compose-eps-basic');
  const pld = await finiteValueOf(page, 'compose-eps-pld', 60_000);
  s = await openStatement(page);
  assert.equal(s.eps, pld);
  assert.ok(s.text.includes('sensitivity'), s.text);
  assert.ok(s.json.scales.mu > 0);

  page = await openLab(await newPage(browser), server.url, '?lab=mechanisms&mech=laplace&eps=0.5&sens=2', 'mech-sigma-analytic');
  s = await openStatement(page);
  assert.equal(s.eps, 0.5);
  assert.ok(s.text.includes('Laplace noise of scale 4') && s.text.includes('δ = 0'), s.text);
  assert.deepEqual(page.problems, []);
});
