// Issue 26's table in the page (not a test): `node tests/e2e/bench_pld.mjs` after a build. For each
// row, the page's own read-out of the accountant's time (from the job's start on the page's clock to
// its result on the page), medians of BENCH_RUNS (default 3):
// - cold: a fresh load, so the workers' first run includes the browser compiling their code (lazily,
//   then again optimized) while the page renders, on this 2-core machine;
// - warm: the same page after σ (ε0 for the shuffle model) moves by 1e-6 (what every later change
//   costs).
// BENCH_ROWS (a regex on the row names) picks rows.
// `scripts/reference/bench_dpsgd.py --page` runs it beside dp_accounting and prints the ratios.
// BENCH_DISTS (comma-separated build directories, e.g. an older checkout's dist/ and this one's) runs
// every row on each build in turn, load by load, so that the machine's drift touches all alike; each
// row then also prints the time from navigation to the row's number painted (the frame after its
// value entered the page), and whether the cold read-out meets issue 54's goal (≤ 2 × warm + 50 ms).
import { basename } from 'node:path';
import { launchBrowser, median, newPage, openLab, serveDist, valueOf } from './harness.mjs';
const ROWS = [
  ['PLD band, q=0.01 σ=1 T=1e5', '?lab=dpsgd&q=0.01&sigma=1&steps=100000&delta=1e-5', 'dpsgd-pld-ms', 60],
  ['PLD band, Abadi et al. MNIST', '?lab=dpsgd', 'dpsgd-pld-ms', 100],
  // Warm: the target moves (the σ search no longer reruns on a σ move: it does not read σ).
  ['σ for ε = 2 by the PLD, Abadi', '?lab=dpsgd&target_eps=2', 'dpsgd-sigma-pld-ms', 300, 'input-target_eps'],
  ['attack lab: curve and risk numbers', '?lab=attack', 'attack-ms', 150],
  ['attack lab: both calibrations', '?lab=attack', 'attack-sigma-ms', 500],
  // Issue 27's: the shuffle model's bounds at the link's n (warm: ε0 moved instead of σ).
  ['shuffle model, n = 10⁷', '?lab=rr&shuffle=1&n=10000000&eps=1', 'rr-shuffle-ms', 100, 'input-eps'],
  // The cold floors: the same labs' jobs with next to nothing to compute (σ = 100, one step: the
  // band takes 0.04 ms natively; the shuffle model at n = 100), so their cold read-outs are the
  // worker's start and first compile alone. Not the rows: no target.
  ['floor: PLD band, σ=100 T=1', '?lab=dpsgd&q=0.01&sigma=100&steps=1&delta=1e-5', 'dpsgd-pld-ms', NaN],
  ['floor: attack lab, σ=100 T=1', '?lab=attack&sigma=100&steps=1', 'attack-ms', NaN],
  ['floor: shuffle model, n = 100', '?lab=rr&shuffle=1&n=100&eps=1', 'rr-shuffle-ms', NaN, 'input-eps'],
].filter(([name]) => new RegExp(process.env.BENCH_ROWS ?? '').test(name));
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
// BENCH_NET=<Mbit/s>,<round trip ms> loads over a throttled network (a first visit is rarely local).
const NET = process.env.BENCH_NET && (([mbit, rtt]) => ({
  offline: false, latency: rtt, downloadThroughput: (mbit * 1e6) / 8, uploadThroughput: (mbit * 1e6) / 8,
}))(process.env.BENCH_NET.split(',').map(Number));

const dists = (process.env.BENCH_DISTS ?? new URL('../../dist', import.meta.url).pathname).split(',');
const servers = await Promise.all(dists.map((d) => serveDist(d)));
const label = (k) => (dists.length > 1 ? `${basename(dists[k].replace(/\/$/, '')) || dists[k]} ` : '');
const browser = await launchBrowser();

/** Installed before the page's scripts: when the test id's number is first on screen (painted: a
 * message posted from the next frame callback runs after that frame's style, layout and paint). */
function watchPainted(id) {
  window.__painted = null;
  let seen = false;
  const check = () => {
    const v = parseFloat(document.querySelector(`[data-testid="${id}"]`)?.dataset.value);
    if (seen || !Number.isFinite(v)) return;
    seen = true;
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { window.__painted = performance.now(); };
      channel.port2.postMessage(null);
    });
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
}

const out = [];
for (const [name, link, id, target, input = 'input-sigma'] of ROWS) {
  const runs = dists.map(() => ({ cold: [], warm: [], painted: [] }));
  const settled = (page, previous) => page.waitForFunction(([t, p]) => {
    const v = parseFloat(document.querySelector(`[data-testid="${t}"]`)?.dataset.value);
    return Number.isFinite(v) && v !== p;
  }, [id, previous], { timeout: 120_000 });
  for (let i = 0; i < RUNS; i++) {
    for (const [k, server] of servers.entries()) {
      const { cold, warm, painted } = runs[k];
      const page = await newPage(browser);
      if (NET) {
        // Chromium's throttling applies to the page's requests and its workers'.
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Network.emulateNetworkConditions', NET);
      }
      await page.addInitScript(watchPainted, id);
      await openLab(page, server.url, link, id);
      await settled(page, null);
      cold.push(await valueOf(page, id));
      await page.waitForFunction(() => window.__painted !== null);
      painted.push(await page.evaluate(() => window.__painted));
      // Let the first load's other jobs finish, then move σ (or the row's input; none: cold only).
      if (input === null) { await page.close(); continue; }
      await page.waitForTimeout(2000);
      const field = page.locator(`[data-testid="${input}"]`);
      const was = Number(await field.inputValue());
      await field.fill(String(was + 1e-6));
      await field.press('Enter');
      await settled(page, cold.at(-1));
      warm.push(await valueOf(page, id));
      await page.close();
    }
  }
  for (const [k, { cold, warm, painted }] of runs.entries()) {
    const [c, w, p] = [median(cold), warm.length ? median(warm) : NaN, median(painted)];
    const goal = Number.isFinite(w) ? (c <= 2 * w + 50 ? 'goal met' : `goal ${(2 * w + 50).toFixed(0)} missed`) : '';
    out.push({ dist: dists[k], name, link, id, cold: c, warm: w, painted: p, target });
    const all = (xs) => xs.map((t) => t.toFixed(0)).join(', ');
    console.log(`${label(k)}${name.padEnd(38)} cold ${c.toFixed(1).padStart(7)} ms (${all(cold)})  warm ${w.toFixed(1).padStart(6)} ms (${all(warm)})  painted ${p.toFixed(0).padStart(5)} ms  ${goal}`);
  }
}
if (process.env.BENCH_JSON) console.log(JSON.stringify(out));
await browser.close();
await Promise.all(servers.map((s) => s.close()));
