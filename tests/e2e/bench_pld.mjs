// Issue 26's table in the page (not a test): `node tests/e2e/bench_pld.mjs` after a build. For each
// row, the page's own read-out of the accountant's time (the worker's job, from its start to its
// result), medians of BENCH_RUNS cold loads (default 3). `scripts/reference/bench_dpsgd.py --page`
// runs it beside dp_accounting and prints the ratios.
import { launchBrowser, newPage, openLab, serveDist, valueOf } from './harness.mjs';

const ROWS = [
  ['PLD band, q=0.01 σ=1 T=1e5', '?lab=dpsgd&q=0.01&sigma=1&steps=100000&delta=1e-5', 'dpsgd-pld-ms', 60],
  ['PLD band, Abadi et al. MNIST', '?lab=dpsgd', 'dpsgd-pld-ms', 100],
  ['σ for ε = 2 by the PLD, Abadi', '?lab=dpsgd&target_eps=2', 'dpsgd-sigma-pld-ms', 300],
  ['attack lab: curve and risk numbers', '?lab=attack', 'attack-ms', 150],
  ['attack lab: both calibrations', '?lab=attack', 'attack-sigma-ms', 500],
];
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const server = await serveDist();
const browser = await launchBrowser();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const out = [];
for (const [name, link, id, target] of ROWS) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const page = await newPage(browser);
    await openLab(page, server.url, link, id);
    await page.waitForFunction(
      (t) => Number.isFinite(parseFloat(document.querySelector(`[data-testid="${t}"]`)?.dataset.value)),
      id, { timeout: 120_000 });
    times.push(await valueOf(page, id));
    await page.close();
  }
  const m = median(times);
  out.push({ name, link, id, ms: m, target });
  console.log(`${name.padEnd(40)} ${m.toFixed(1).padStart(8)} ms  (target ≤ ${target})  runs ${times.map((t) => t.toFixed(0)).join(', ')}`);
}
if (process.env.BENCH_JSON) console.log(JSON.stringify(out));
await browser.close();
await server.close();
