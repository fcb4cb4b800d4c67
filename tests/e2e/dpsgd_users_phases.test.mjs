// Browser tests of the DP-SGD lab's user-level accountants (issue 27, item 5) and its schedules and
// tuning (item 4): the numbers in their known order, computed in the worker pool or on the page.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, newPage, openLab, serveDist, valueOf } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const finite = (page, id) => page.waitForFunction(
  (id) => Number.isFinite(parseFloat(document.querySelector(`[data-testid="${id}"]`)?.dataset.value)),
  id, { timeout: 120_000 });

test('three records per user: the mixture PLD below the group lemma, far below sampling them together', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=dpsgd&users=3', 'dpsgd-eps-rdp');
  await finite(page, 'dpsgd-eps-user');
  const [user, lower, group, together] = await Promise.all(['dpsgd-eps-user', 'dpsgd-eps-user-lower',
    'dpsgd-eps-group', 'dpsgd-eps-user-together'].map((id) => valueOf(page, id)));
  assert.ok(lower <= user && user < group && group < together, `${lower} ${user} ${group} ${together}`);
  // The core natively (tests/users_tuning.rs checks it against dp_accounting's MixtureOfGaussians).
  assert.ok(Math.abs(user - 8.528330312829906) < 1e-6, `user ε ${user}`);
  // Back to one record per user: the link drops the key and the section says it is the record level.
  await page.fill('[data-testid="input-users"]', '1');
  await page.waitForFunction(() => /record-level/.test(document.querySelector('[data-testid="dpsgd-users-status"]')?.textContent ?? ''));
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('a schedule composes its phases; tuning sits between one run and all runs', async () => {
  const page = await openLab(await newPage(browser), server.url,
    '?lab=dpsgd&schedule=0.01:1:500,0.02:1.5:300&tuning=tnb:1:10', 'dpsgd-eps-rdp');
  await finite(page, 'dpsgd-eps-schedule-lower');
  const [pld, lower, rdp] = await Promise.all(['dpsgd-eps-schedule', 'dpsgd-eps-schedule-lower',
    'dpsgd-eps-schedule-rdp'].map((id) => valueOf(page, id)));
  assert.ok(lower <= pld && pld < rdp, `${lower} ${pld} ${rdp}`);
  const [tuned, single, naive] = await Promise.all(['dpsgd-eps-tuned', 'dpsgd-eps-tuned-single',
    'dpsgd-eps-tuned-naive'].map((id) => valueOf(page, id)));
  assert.equal(single, rdp);
  assert.ok(single < tuned && tuned < naive, `${single} ${tuned} ${naive}`);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('bad schedules, tunings and user counts fall back with a notice and no NaN', async () => {
  const page = await openLab(await newPage(browser), server.url,
    '?lab=dpsgd&schedule=0.01:1&tuning=tnb:-1:5&users=0', 'dpsgd-eps-rdp');
  for (const key of ['schedule', 'tuning', 'users']) {
    assert.ok(await page.isVisible(`[data-testid="notice-${key}"]`), key);
  }
  await page.waitForSelector('[data-testid="dpsgd-phases"]');
  for (const id of ['dpsgd-phases', 'dpsgd-users']) {
    assert.ok(!/NaN/.test(await page.textContent(`[data-testid="${id}"]`)), id);
  }
  await page.close();
});

test('replacing a user: between a zero-gradient user and removing then adding, with a note', async () => {
  const open = async (neighbour) => {
    const page = await openLab(await newPage(browser), server.url,
      `?lab=dpsgd&q=0.01&sigma=1&steps=1000&users=4&neighbour=${neighbour}`, 'dpsgd-eps-rdp');
    await finite(page, 'dpsgd-eps-user');
    return page;
  };
  const [replace, addRemove] = [await open('replace-one'), await open('add-remove')];
  const [user, lower] = [await valueOf(replace, 'dpsgd-eps-user'), await valueOf(replace, 'dpsgd-eps-user-lower')];
  const plain = await valueOf(addRemove, 'dpsgd-eps-user');
  assert.ok(lower <= user && plain < user, `${lower} ${user} (add/remove ${plain})`);
  assert.match(await replace.textContent('[data-testid="dpsgd-users-gap"]'), /removes the user/);
  assert.equal(await addRemove.locator('[data-testid="dpsgd-users-gap"]').count(), 0);
  await replace.close();
  await addRemove.close();
});
