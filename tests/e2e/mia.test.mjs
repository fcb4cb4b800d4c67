// Browser tests of the training lab's membership inference (issue 28): shadow models trained in the
// worker pool, the loss-threshold attack and LiRA on every model, beside the certified cap.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, newPage, openLab, serveDist, valueOf, waitDrawn } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const done = (page) => page.waitForFunction(
  () => Number.isFinite(parseFloat(document.querySelector('[data-testid="train-mia-auc"]')?.dataset.value)),
  null, { timeout: 120_000 });

const numbers = (page) => Promise.all(['train-mia-tpr-low-fpr', 'train-mia-auc', 'train-mia-tpr-low-fpr-baseline',
  'train-mia-auc-baseline', 'train-mia-cap-tpr-low-fpr', 'train-mia-cap-auc'].map((id) => valueOf(page, id)));

test('LiRA on the default lab: the private models stay under the certified cap', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=train&mia=lira&shadows=16', 'train-q');
  await done(page);
  const [tpr, auc, tprBase, aucBase, capTpr, capAuc] = await numbers(page);
  for (const r of [tpr, tprBase, capTpr]) assert.ok(r >= 0 && r <= 1, `rate ${r}`);
  assert.ok(auc > 0.4 && auc <= capAuc, `AUC ${auc}, cap ${capAuc}`);
  assert.ok(tpr <= capTpr, `TPR ${tpr}, cap ${capTpr}`);
  assert.ok(aucBase > 0.4 && aucBase < 1);
  // Three attacks and the cap, each on the three trainers.
  assert.equal(await page.locator('[data-testid="train-mia-table"] tbody tr').count(), 4);
  await waitDrawn(page, 'train-mia-chart-roc');
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('a model that memorises leaks without noise, and DP-SGD caps the leak', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=train&shadows=16', 'train-q');
  await page.click('[data-testid="train-mia-try-memorise"]');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('mia') === 'lira');
  await done(page);
  const [tpr, auc, tprBase, aucBase, capTpr, capAuc] = await numbers(page);
  assert.ok(aucBase > 0.75 && aucBase > auc, `non-private AUC ${aucBase}, private ${auc}`);
  assert.ok(tprBase > 0.01, `non-private TPR at 0.1% FPR ${tprBase}`);
  assert.ok(auc <= capAuc && tpr <= capTpr, `private ${auc}, ${tpr}; cap ${capAuc}, ${capTpr}`);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('the loss attack is headlined with mia=loss, and ugly values fall back with a notice', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=train&mia=loss&shadows=8', 'train-q');
  await done(page);
  assert.equal(await page.inputValue('[data-testid="select-mia"]'), 'loss');
  await page.close();
  const ugly = await openLab(await newPage(browser), server.url, '?lab=train&mia=maybe', 'train-q');
  assert.ok(await ugly.isVisible('[data-testid="notice-mia"]'));
  assert.ok(!(await ugly.isVisible('[data-testid="train-mia-auc"]')));
  await ugly.close();
  const few = await openLab(await newPage(browser), server.url, '?lab=train&mia=lira&shadows=3&epochs=5', 'train-q');
  assert.ok(await few.isVisible('[data-testid="notice-shadows"]'));
  await done(few);
  assert.ok(!/NaN/.test(await few.textContent('[data-testid="train-mia"]')));
  assert.deepEqual(few.problems, []);
  await few.close();
});
