// The image lab (`?lab=images`): its certified ε is dp_accounting's (scripts/reference/
// images_reference.py), MNIST is fetched only when Train is pressed (and no other lab fetches it), a
// small run trains to its last epoch with its digits and mistakes drawn (and the CNN one epoch), a run split over two workers
// is the run on one, and a paused run resumes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { finiteValueOf, launchBrowser, newPage, openLab, serveDist, valueOf } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Records the addresses the page and its workers request. */
function requests(page) {
  const seen = [];
  page.context().on('request', (r) => seen.push(r.url()));
  return seen;
}

test('the default link: Abadi et al.\'s medium noise, ε as dp_accounting, no MNIST before Train', async () => {
  const page = await newPage(browser);
  const seen = requests(page);
  await openLab(page, server.url, '?lab=images', 'images-eps');
  const eps = await finiteValueOf(page, 'images-eps');
  // dp_accounting 0.6 PLD: 0.5847106928942049 (σ = 4, q = 0.01, 1 000 steps, PCA σp = 7).
  assert.ok(eps >= 0.5847 * (1 - 2e-4) && eps < 0.5847 * 1.005, `ε ${eps}`);
  assert.match(await page.textContent('[data-testid="lab-headline"]'), /^ε ≤ 0\.58\d+ at δ = 1×10⁻⁵ over 10 epochs/);
  assert.match(await page.textContent('[data-testid="images-paper"]'), /Medium noise/);
  await page.waitForTimeout(500);
  assert.deepEqual(seen.filter((u) => u.includes('data/mnist')), []);
  // Another lab never asks for the image data either.
  await page.goto(`${server.url}?lab=train`);
  await page.waitForSelector('[data-testid="train-eps"]', { state: 'attached' });
  await page.waitForTimeout(500);
  assert.deepEqual(seen.filter((u) => u.includes('data/mnist')), []);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('a small run downloads MNIST once, trains to its last epoch, and shows digits and mistakes', async () => {
  const page = await newPage(browser);
  const seen = requests(page);
  await openLab(page, server.url, '?lab=images&model=logreg&rows=3000&lot=100&epochs=2&sigma=1&clip=1&lr=0.5&lr_end=0.5', 'images-eps');
  await page.click('[data-testid="images-train"]');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="images-epoch"]')?.dataset.value) === 2, null, { timeout: 120_000 });
  // Two noisy epochs of logistic regression on 3 000 images: far above chance (0.1); this seeded
  // run reaches 0.748 since session 64's noise is drawn by blocks (a different draw, the same law).
  assert.ok(await valueOf(page, 'images-accuracy') > 0.7, `accuracy ${await valueOf(page, 'images-accuracy')}`);
  assert.equal(await valueOf(page, 'images-samples'), 24);
  await page.waitForSelector('[data-testid="images-mistakes"]');
  assert.match(await page.textContent('[data-testid="images-mistakes"]'), /read as/);
  assert.match(await page.textContent('[data-testid="images-status"]'), /Done: 2 epochs/);
  assert.equal(seen.filter((u) => u.includes('data/mnist')).length, 4);
  // A new setting starts over; Train again uses the downloaded files: one epoch of the small CNN.
  await page.fill('[data-testid="input-epochs"]', '1');
  await page.press('[data-testid="input-epochs"]', 'Enter');
  await page.selectOption('[data-testid="select-model"]', 'cnn');
  await page.click('[data-testid="images-train"]');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="images-epoch"]')?.dataset.value) === 1, null, { timeout: 120_000 });
  assert.match(page.url(), /model=cnn/);
  // 30 noisy steps of the CNN: above chance (0.1).
  assert.ok(await valueOf(page, 'images-accuracy') > 0.2, `CNN accuracy ${await valueOf(page, 'images-accuracy')}`);
  assert.equal(seen.filter((u) => u.includes('data/mnist')).length, 4);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('a seeded run split over one worker and over two gives the same model, bit for bit', async () => {
  const link = '?lab=images&model=mlp&hidden=16&rows=2000&lot=100&epochs=2&sigma=1&clip=1&lr=0.5&lr_end=0.5&seed=5';
  const trained = [];
  for (const threads of [1, 2]) {
    const page = await openLab(await newPage(browser), server.url, `${link}&threads=${threads}`, 'images-eps');
    await page.click('[data-testid="images-train"]');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="images-epoch"]')?.dataset.value) === 2, null, { timeout: 120_000 });
    assert.match(await page.textContent('[data-testid="images-status"]'), /Done: 2 epochs/);
    // Full precision: the test loss moves with every bit of the model.
    trained.push(await Promise.all(['images-accuracy', 'images-loss'].map((id) => page.getAttribute(`[data-testid="${id}"]`, 'data-value'))));
    assert.deepEqual(page.problems, []);
    await page.close();
  }
  assert.ok(Number(trained[0][0]) > 0.5, `accuracy ${trained[0]}`);
  assert.deepEqual(trained[1], trained[0]);
});

test('Abadi et al.\'s network: the PCA, a pause after an epoch, and a resume to the end', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=images&model=abadi&hidden=64&pca=20&pca_sigma=1&rows=2000&lot=50&epochs=40&sigma=1', 'images-eps');
  await page.click('[data-testid="images-train"]');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="images-epoch"]')?.dataset.value) >= 1, null, { timeout: 120_000 });
  await page.click('[data-testid="images-pause"]');
  assert.match(await page.textContent('[data-testid="images-status"]'), /Paused after step \d+/);
  assert.equal(await page.textContent('[data-testid="images-train"]'), 'Resume');
  await page.click('[data-testid="images-train"]');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="images-epoch"]')?.dataset.value) === 40, null, { timeout: 120_000 });
  const accuracy = await valueOf(page, 'images-accuracy');
  assert.ok(accuracy > 0.6, `accuracy ${accuracy}`);
  assert.deepEqual(page.problems, []);
  await page.close();
});
