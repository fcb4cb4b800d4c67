// The image lab's speed in the page (not a test): `node tests/e2e/bench_images.mjs` after a build.
// Trains one epoch of a model on MNIST (BENCH_MODEL: mlp, the default, logreg or abadi; lot 600,
// σ = 1, C = 1) split over 1 worker, then over 2 (the link's `threads`; BENCH_THREADS="1 2" by
// default), and prints the page's per-example gradients per second for each (`images-rate`, the
// expected lot per step over the run's time since its data was ready: the rounds' messages and the
// epoch's test evaluation included) and the epoch's time; `scripts/bench-images.sh` prints them
// against native.
import { launchBrowser, newPage, openLab, serveDist, valueOf } from './harness.mjs';

const model = process.env.BENCH_MODEL ?? 'mlp';
const server = await serveDist();
const browser = await launchBrowser();
for (const threads of (process.env.BENCH_THREADS ?? '1 2').split(' ')) {
  const page = await openLab(await newPage(browser), server.url,
    `?lab=images&model=${model}&hidden=${model === 'abadi' ? 1000 : 300}&sigma=1&clip=1&lot=600&epochs=1&lr=0.05&lr_end=0.05&threads=${threads}`, 'images-eps');
  const start = Date.now();
  await page.click('[data-testid="images-train"]');
  await page.waitForFunction(() => /Training/.test(document.querySelector('[data-testid="images-status"]')?.textContent ?? ''), null, { timeout: 300_000 });
  const ready = Date.now();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="images-epoch"]')?.dataset.value) === 1, null, { timeout: 600_000 });
  const done = Date.now();
  console.log(`image lab (${model}): page per-example gradients per second (${threads} workers) ${(await valueOf(page, 'images-rate')).toFixed(0)}`);
  console.log(`image lab (${model}, ${threads} workers): download and preparation ${((ready - start) / 1e3).toFixed(1)} s, one epoch ${((done - ready) / 1e3).toFixed(1)} s`);
  await page.close();
}
await browser.close();
await server.close();
