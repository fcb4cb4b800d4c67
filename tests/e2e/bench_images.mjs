// The image lab's speed in the page (not a test): `node tests/e2e/bench_images.mjs` after a build.
// Trains a model on MNIST (BENCH_MODEL: mlp, the default, logreg or abadi; lot 600, σ = 1, C = 1)
// for two epochs, split over 1 worker, then over 2 (the link's `threads`), then as the control: two
// pages training on 1 worker each at once ("1+1": what two workers give with no exchange and no
// lockstep, the most a gang of two can reach on this machine). BENCH_THREADS="1 2 1+1" by default.
// For each it prints the second epoch's time and its per-example gradients per second (60 000 over
// that time, summed over the pages: the shares passed between workers and the epoch's test
// evaluation included; the first epoch also holds each worker's one-time reading of the files, and
// for Abadi et al.'s network its projection of them); `scripts/bench-images.sh` prints them against
// native. BENCH_BUSY=1: another page's worker spins throughout, as a busy tab would (the workers then
// share the cores unevenly: what the gang's balanced split is for).
import { launchBrowser, newPage, openLab, serveDist, valueOf } from './harness.mjs';

const model = process.env.BENCH_MODEL ?? 'mlp';
const server = await serveDist();
const browser = await launchBrowser();
/** Trains in one page on `threads` workers; resolves to the second epoch's milliseconds. */
async function epochs(page, threads) {
  const start = Date.now();
  await page.click('[data-testid="images-train"]');
  await page.waitForFunction(() => /Training/.test(document.querySelector('[data-testid="images-status"]')?.textContent ?? ''), null, { timeout: 300_000 });
  const ready = Date.now();
  const epoch = (e) => page.waitForFunction((e) => Number(document.querySelector('[data-testid="images-epoch"]')?.dataset.value) === e, e, { timeout: 600_000, polling: 20 });
  await epoch(1);
  const first = Date.now();
  await epoch(2);
  const second = Date.now();
  console.log(`image lab (${model}, ${threads} workers): download and preparation ${((ready - start) / 1e3).toFixed(1)} s, first epoch ${((first - ready) / 1e3).toFixed(1)} s, second ${((second - first) / 1e3).toFixed(1)} s (the page's own rate over both: ${(await valueOf(page, 'images-rate')).toFixed(0)})`);
  return second - first;
}

for (const plan of (process.env.BENCH_THREADS ?? '1 2 1+1').split(' ')) {
  const busy = process.env.BENCH_BUSY ? await newPage(browser) : null;
  if (busy) {
    await busy.goto(server.url);
    await busy.evaluate(() => {
      self.spinning = new Worker(URL.createObjectURL(new Blob(['let x = 0; for (;;) x += Math.sqrt(x + 1);'])));
    });
  }
  // "1+1": two pages of 1 worker each, at once; otherwise one page of that many workers.
  const threads = plan.split('+').map(Number);
  const pages = [];
  for (const t of threads) {
    pages.push(await openLab(await newPage(browser), server.url,
      `?lab=images&model=${model}&hidden=${model === 'abadi' ? 1000 : 300}&sigma=1&clip=1&lot=600&epochs=2&lr=0.05&lr_end=0.05&threads=${t}`, 'images-eps'));
  }
  const times = await Promise.all(pages.map((page, k) => epochs(page, threads[k])));
  const rate = times.reduce((sum, ms) => sum + 60_000 / (ms / 1e3), 0);
  const what = threads.length > 1 ? `${plan}: ${threads.length} pages at once` : `${plan} workers`;
  console.log(`image lab (${model}${busy ? ', beside a busy tab' : ''}): page per-example gradients per second (${what}) ${rate.toFixed(0)}`);
  for (const page of pages) await page.close();
  await busy?.close();
}
await browser.close();
await server.close();
