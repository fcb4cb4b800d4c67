// A/B of builds on fresh browsers (not a test): `node tests/e2e/bench_fresh.mjs [dir ...]` (default
// dist/). Each load starts its own Chromium, so nothing the browser caches per process (compiled code,
// fonts) carries over from an earlier load, as on a first visit. For each link and build, BENCH_RUNS
// loads (default 3): the longest main-thread task since navigation (PerformanceObserver longtask; 0 when
// none reached 50 ms) and the link's read-out, if it has one. BENCH_ROWS (a regex on the links) picks
// links. `bench.mjs` reuses one browser and so measures later visits' first numbers.
import { resolve } from 'node:path';
import { finiteValueOf, launchBrowser, openTimed, serveDist } from './harness.mjs';

// [link, the first number's test id, the read-out's test id or null]
const LINKS = [
  ['?lab=rr&k=50', 'rr-p-truth', null],
  ['?lab=rr&n=1e7&k=50&reps=1000&seed=1', 'rr-p-truth', null],
  ['?lab=rr&shuffle=1&n=10000000&eps=1', 'rr-p-truth', 'rr-shuffle-ms'],
  ['?lab=mechanisms&mech=tlap', 'mech-sigma-analytic', null],
  ['?lab=compose', 'compose-eps-basic', 'compose-pld-ms'],
  ['?lab=dpsgd', 'dpsgd-eps-rdp', 'dpsgd-pld-ms'],
  ['?lab=dpsgd&q=0.01&sigma=1&steps=100000&delta=1e-5', 'dpsgd-eps-rdp', 'dpsgd-pld-ms'],
  ['?lab=attack', 'attack-eps', 'attack-ms'],
  ['?lab=wdp&fig=2&seed=1', 'wdp-fig2-final-wdp', null],
  ['?lab=tangent', 'tdp-norm-tv', null],
  ['?lab=train', 'train-q', null],
  ['?lab=about', 'about-sides', null],
].filter(([link]) => new RegExp(process.env.BENCH_ROWS ?? '').test(link));
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const dirs = process.argv.length > 2 ? process.argv.slice(2).map((d) => resolve(d)) : [undefined];

for (const [link, ready, readout] of LINKS) {
  for (const dir of dirs) {
    const server = await serveDist(dir);
    const [longest, times] = [[], []];
    for (let i = 0; i < RUNS; i++) {
      const browser = await launchBrowser();
      const { page, longest: l } = await openTimed(browser, server.url, link, ready);
      longest.push(l);
      if (readout) {
        times.push(await finiteValueOf(page, readout));
      }
      await browser.close();
    }
    const list = (xs) => xs.map((x) => x.toFixed(0)).join(', ');
    console.log(`${link.padEnd(52)} ${(dir ?? 'dist').slice(-24).padEnd(24)} longest task ${list(longest).padEnd(18)}${readout ? ` ${readout} ${list(times)}` : ''}`);
    await server.close();
  }
}
