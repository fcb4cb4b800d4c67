// Browser tests of the training lab: the default breast-cancer run trains in the page, its ε is the
// DP-SGD lab's, pause/step/resume and the worker count do not change a number, ugly inputs get messages.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, newPage, openLab, serveDist, valueOf, waitDrawn, canvasColours } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const idle = (page) => page.waitForFunction(() => document.querySelector('[data-testid="train-status"]')?.textContent === '', null, { timeout: 60_000 });
const values = async (page, ids) => Object.fromEntries(await Promise.all(ids.map(async (id) => [id, await valueOf(page, id)])));
const KEY = ['train-acc-test', 'train-acc-train', 'train-loss-test', 'train-acc-clip-only', 'train-acc-baseline', 'train-steps', 'train-grad-norm-median', 'train-clipped-fraction'];

test('the default run: trains to T, accuracies in range, ε equal to the DP-SGD lab\'s, every chart drawn', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=train', 'train-q');
  await idle(page);
  const v = await values(page, [...KEY, 'train-eps', 'train-eps-rdp', 'train-q', 'train-ms']);
  assert.equal(v['train-steps'], 427);
  assert.ok(v['train-acc-baseline'] > 0.95, `non-private ${v['train-acc-baseline']}`);
  assert.ok(v['train-acc-test'] > 0.85 && v['train-acc-test'] <= 1, `DP-SGD ${v['train-acc-test']}`);
  assert.ok(v['train-eps'] > 0 && v['train-eps'] <= v['train-eps-rdp'] * 1.001, JSON.stringify(v));
  console.log(`default run: ${JSON.stringify(v)}`);
  // The DP-SGD lab, opened from the link, shows the same certified ε.
  const href = await page.getAttribute('[data-testid="train-dpsgd-link"]', 'href');
  // The page's links are path-absolute (link::href::same_page_href): resolved against the page.
  const dpsgd = await openLab(await newPage(browser), '', new URL(href, page.url()).href, 'dpsgd-eps-rdp');
  await dpsgd.waitForFunction(() => document.querySelector('[data-testid="dpsgd-status"]')?.textContent === '', null, { timeout: 60_000 });
  assert.equal(await valueOf(dpsgd, 'dpsgd-eps-pld'), v['train-eps']);
  for (const chart of ['train-chart-curves', 'train-chart-eps', 'train-chart-norms', 'train-chart-utility']) {
    await page.locator(`[data-testid="${chart}"]`).scrollIntoViewIfNeeded();
    await waitDrawn(page, chart);
    assert.ok(await canvasColours(page, chart) > 3, chart);
  }
  assert.deepEqual(page.problems, []);
  assert.deepEqual(dpsgd.problems, []);
});

test('reset, one step, play: the same numbers as an uninterrupted run, on one worker or two', async () => {
  const link = '?lab=train&data=circle&model=mlp&hidden=8&steps=300&sweep=1&seeds=1';
  const one = await openLab(await newPage(browser), server.url, `${link}&threads=1`, 'train-q');
  await idle(one);
  const whole = await values(one, KEY);
  const two = await openLab(await newPage(browser), server.url, `${link}&threads=2`, 'train-q');
  await idle(two);
  await two.click('[data-testid="train-reset"]');
  await two.waitForFunction(() => document.querySelector('[data-testid="train-steps"]')?.dataset.value === '0');
  await idle(two);
  for (let i = 1; i <= 3; i++) {
    await two.click('[data-testid="train-step"]');
    await two.waitForFunction((n) => document.querySelector('[data-testid="train-steps"]')?.dataset.value === String(n), i);
    await idle(two);
  }
  await two.click('[data-testid="train-play"]');
  await two.waitForFunction(() => document.querySelector('[data-testid="train-steps"]')?.dataset.value === '300', null, { timeout: 60_000 });
  await idle(two);
  assert.deepEqual(await values(two, KEY), whole);
  await two.locator('[data-testid="train-chart-boundary"]').scrollIntoViewIfNeeded();
  await waitDrawn(two, 'train-chart-boundary');
  assert.ok(await canvasColours(two, 'train-chart-boundary') > 3);
  assert.deepEqual(one.problems, []);
  assert.deepEqual(two.problems, []);
});

test('ugly inputs: bad keys, a diverging learning rate, a CSV with text or one class', async () => {
  let page = await openLab(await newPage(browser), server.url, '?lab=train&sigma=nan&lr=-1&data=mnist&hidden=99', 'train-q');
  for (const key of ['sigma', 'lr', 'data']) assert.ok(await page.isVisible(`[data-testid="notice-${key}"]`), key);
  await idle(page);
  assert.ok(await valueOf(page, 'train-acc-test') > 0.85);
  page = await openLab(await newPage(browser), server.url, '?lab=train&lr=100&clip=1e6&sigma=0.1', 'train-q');
  await idle(page);
  assert.match(await page.textContent('main'), /diverge/);
  assert.ok(!/NaN/.test(await page.textContent('.stats')));
  // Issue 53: no file, no run: no ε for a placeholder, in the headline or the cards.
  page = await openLab(await newPage(browser), server.url, '?lab=train&data=csv', 'train-q');
  await page.waitForSelector('[data-testid="train-no-data"]:not([hidden])');
  assert.match(await page.textContent('[data-testid="lab-headline"]'), /No data loaded/);
  assert.doesNotMatch(await page.textContent('[data-testid="lab-headline"]'), /ε ≤/);
  for (const id of ['train-eps', 'train-eps-rdp', 'train-eps-now', 'train-q']) assert.ok(!Number.isFinite(await valueOf(page, id)), id);
  const dir = mkdtempSync(join(tmpdir(), 'train-'));
  // Issue 53: degenerate, binary and oversized files are named for what they are, briefly.
  for (const [name, body, said] of [
    ['empty.csv', 'a,b,y\n', /no data rows/],
    ['one.csv', '1,2,0\n', /too small/],
    ['binary.csv', '\x7fELF\x02\x01\x1b[31m\x00\x00' + 'x'.repeat(5000), /binary file/],
    ['long.csv', '1'.repeat(1_000_000) + '\n', /one column/],
    ['huge.csv', '1,0\n'.repeat(4_500_000), /up to 16 MB/],
  ]) {
    writeFileSync(join(dir, name), body);
    await page.setInputFiles('[data-testid="input-csv"]', join(dir, name));
    await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('[data-testid="notice-csv"]')?.textContent ?? ''), said.source);
    const text = await page.textContent('[data-testid="notice-csv"]');
    assert.ok(text.length < 300 && !/[\x00-\x1f\x7f]/.test(text), `${name}: ${JSON.stringify(text.slice(0, 400))}`);
  }
  const bad = join(dir, 'bad.csv');
  writeFileSync(bad, 'a,b,y\n1,2,0\n3,x,1\n');
  await page.setInputFiles('[data-testid="input-csv"]', bad);
  await page.waitForSelector('[data-testid="notice-csv"]:not([hidden])');
  assert.match(await page.textContent('[data-testid="notice-csv"]'), /not a finite number/);
  const good = join(dir, 'good.csv');
  writeFileSync(good, 'a,b,y\n' + Array.from({ length: 200 }, (_, i) => `${Math.sin(i)},${Math.cos(3 * i)},${Math.sin(i) > 0 ? 1 : 0}`).join('\n'));
  await page.setInputFiles('[data-testid="input-csv"]', good);
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="train-steps"]')?.dataset.value) > 0, null, { timeout: 60_000 });
  await idle(page);
  assert.ok(await valueOf(page, 'train-acc-baseline') > 0.9);
  assert.ok(!new URL(page.url()).search.includes('csv=') && !page.url().includes('0.84'), 'the CSV stays out of the link');
  assert.deepEqual(page.problems, []);
});

test('a run planned for 60 000 records says what breast cancer changes, and keeps the batch on request', async () => {
  // The DP-SGD lab's link for n = 60 000, batch 256, 10 epochs (issue 52).
  const link = '?lab=train&q=8/1875&sigma=1.1&steps=2344&delta=0.00001&batch=256&epochs=10.0016&plan_n=60000';
  const page = await openLab(await newPage(browser), server.url, link, 'train-plan-note');
  assert.match(await page.textContent('[data-testid="train-plan-note"]'), /about 1\.94 rows \(the plan's held 256\)/);
  assert.equal(await page.inputValue('[data-testid="input-batch"]'), '1.941');
  await idle(page);
  assert.match(await page.textContent('[data-testid="train-norms-note"]'), /not a bug/);
  await page.click('[data-testid="train-keep-batch"]');
  await page.waitForFunction(() => /q = 0\.5626/.test(document.querySelector('[data-testid="train-plan-note"]')?.textContent ?? ''));
  assert.ok(!new URL(page.url()).searchParams.has('q'));
  assert.equal(await page.inputValue('[data-testid="input-batch"]'), '256');
  assert.ok(Math.abs(await valueOf(page, 'train-q') - 256 / 455) < 1e-12);
  assert.deepEqual(page.problems, []);
  await page.close();
});
