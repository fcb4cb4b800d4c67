// Timings in the browser (not a test): `node tests/e2e/bench.mjs` after a build. Prints the lab's own
// compute time and each chart's draw time at the heaviest settings, and the time from a slider move
// to the redrawn charts, against the 16 ms frame and the 500 ms budget for 10^7 respondents.
import { launchBrowser, newPage, openLab, serveDist, waitDrawn } from './harness.mjs';

const server = await serveDist();
const browser = await launchBrowser();
const timings = (page) => page.evaluate(() => ({
  compute: Number(document.querySelector('[data-testid="rr-compute-ms"]').dataset.value),
  draws: [...document.querySelectorAll('canvas')].map((c) => Number(c.dataset.drawMs)),
}));
for (const [name, query] of [
  ['n = 10^7, K = 2, R = 200', '?lab=rr&n=1e7&seed=1'],
  ['n = 10^7, K = 50, R = 1000', '?lab=rr&n=1e7&k=50&reps=1000&seed=1'],
]) {
  const page = await openLab(await newPage(browser), server.url, query);
  await waitDrawn(page, 'rr-chart-histogram');
  const t = await timings(page);
  const total = t.compute + t.draws.reduce((a, b) => a + b, 0);
  console.log(`${name}: compute ${t.compute.toFixed(1)} ms, draws ${t.draws.map((d) => d.toFixed(1)).join(' + ')} ms, total ${total.toFixed(1)} ms (${(total / 500).toFixed(3)} of 500 ms)`);
}
const page = await openLab(await newPage(browser), server.url, '?lab=rr&seed=1');
await waitDrawn(page, 'rr-chart-histogram');
const moves = [];
for (let i = 0; i < 20; i++) {
  const eps = (0.5 + i * 0.1).toFixed(2);
  const ms = await page.evaluate(async (value) => {
    const slider = document.querySelector('[data-testid="slider-eps"]');
    const start = performance.now();
    slider.value = value;
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise((r) => requestAnimationFrame(() => r()));
    return performance.now() - start;
  }, eps);
  moves.push(ms);
}
moves.sort((a, b) => a - b);
console.log(`ε slider move to next frame (default lab, 20 moves): median ${moves[10].toFixed(1)} ms, max ${moves[19].toFixed(1)} ms (${(moves[10] / 16).toFixed(3)} of a 16 ms frame)`);

// Mechanisms lab: time from an ε slider move until every chart that depends on ε has been redrawn
// (a MutationObserver sees each canvas's data-drawn change), i.e. the work a frame must hold.
for (const mech of ['gaussian', 'laplace', 'tlap', 'exponential']) {
  const page = await openLab(await newPage(browser), server.url, `?lab=mechanisms&mech=${mech}&seed=1`, 'mech-sigma-analytic');
  await waitDrawn(page, 'mech-chart-queries');
  const works = [];
  for (let i = 0; i < 20; i++) {
    const eps = (0.5 + i * 0.1).toFixed(2);
    works.push(await page.evaluate(async (value) => {
      const ids = mechCharts();
      // Charts off screen wait until they scroll into view, so only those in sight are redrawn.
      function mechCharts() {
        return [...document.querySelectorAll('canvas[data-testid^="mech-chart"]')]
          .filter((c) => { const r = c.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; })
          .map((c) => c.dataset.testid);
      }
      const before = Object.fromEntries(ids.map((id) => [id, document.querySelector(`[data-testid="${id}"]`).dataset.drawn]));
      const slider = document.querySelector('[data-testid="slider-eps"]');
      const start = performance.now();
      const done = new Promise((resolve) => {
        const pending = new Set(ids);
        const observer = new MutationObserver(() => {
          for (const id of [...pending]) {
            if (document.querySelector(`[data-testid="${id}"]`).dataset.drawn !== before[id]) pending.delete(id);
          }
          if (pending.size === 0) { observer.disconnect(); resolve(performance.now() - start); }
        });
        observer.observe(document.querySelector('main'), { attributes: true, subtree: true, attributeFilter: ['data-drawn'] });
      });
      slider.value = value;
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      return done;
    }, eps));
  }
  works.sort((a, b) => a - b);
  const compute = await page.evaluate(() => Number(document.querySelector('[data-testid="mech-compute-ms"]').dataset.value));
  console.log(`mechanisms, ${mech}: ε slider move to all charts redrawn (20 moves, ${await page.evaluate(() => [...document.querySelectorAll('canvas')].filter((c) => { const r = c.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; }).length)} charts in view): median ${works[10].toFixed(1)} ms, max ${works[19].toFixed(1)} ms (${(works[10] / 16).toFixed(3)} of a 16 ms frame); core compute ${compute.toFixed(2)} ms`);
}
await browser.close();
await server.close();
