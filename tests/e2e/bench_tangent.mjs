// Benchmark (not a test) of the tangent lab at its largest size (200 × 200 grid, N = 10⁴, ~8·10⁸ loss
// evaluations): native on one thread (`cargo bench --bench tangent`, opt-level 3 as the worker module),
// then in headless Chromium on 1 worker and on every core, with loss evaluations per second per core
// and the time that rate gives on an 8-core laptop.
// node tests/e2e/bench_tangent.mjs   (after scripts/build.sh; runs cargo bench itself)
import { execFileSync } from 'node:child_process';
import { launchBrowser, newPage, serveDist } from './harness.mjs';

const LINK = '?lab=tangent&model=linear2d&n=10000&wgrid=-3:3:200';
// parameters × (data points + candidates), candidates = data + 2 × 13 grid features (the default xgrid).
const EVALS = 200 * 200 * (10_000 + 10_000 + 26);

const out = execFileSync('cargo', ['bench', '--bench', 'tangent'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
const nativeMs = Number(/200 × 200 w, 10⁴ points.*?median\s+([\d.]+) ms/.exec(out)[1]);

const server = await serveDist();
const browser = await launchBrowser();
const runs = [];
try {
  for (const threads of [1, null]) {
    const page = await newPage(browser);
    await page.goto(`${server.url}${LINK}${threads ? `&threads=${threads}` : ''}`);
    await page.waitForSelector('[data-testid="tdp-norm-tv"]', { timeout: 600_000 });
    const ms = Number(await page.getAttribute('[data-testid="tdp-ms"]', 'data-value'));
    const workers = threads ?? await page.evaluate(() => Math.min(8, navigator.hardwareConcurrency));
    runs.push({ workers, ms });
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
const rate = (ms, cores) => EVALS / (ms / 1000) / cores;
const native = rate(nativeMs, 1);
console.table([
  { where: 'native, 1 thread', 'report (s)': (nativeMs / 1000).toFixed(2), 'evaluations/s/core': native.toExponential(2), 'of native': '1.00' },
  ...runs.map(({ workers, ms }) => ({
    where: `Chromium, ${workers} worker${workers > 1 ? 's' : ''}`,
    'report (s)': (ms / 1000).toFixed(2),
    'evaluations/s/core': rate(ms, workers).toExponential(2),
    'of native': (rate(ms, workers) / native).toFixed(2),
  })),
]);
const perCore = rate(runs[0].ms, 1);
console.log(`${EVALS.toExponential(2)} loss evaluations; at the 1-worker rate an 8-core laptop takes ~${(EVALS / perCore / 8).toFixed(1)} s (plus the merge and the extras).`);
