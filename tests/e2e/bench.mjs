// Timings in the browser (not a test): `node tests/e2e/bench.mjs` after a build. First one table: for
// each lab's default link and each heavy link (medians of BENCH_RUNS cold loads, default 3), the time
// from navigation to the first number on screen (painted: the frame after it entered the page), to the
// end of every background job, the longest main-thread task (PerformanceObserver longtask) while jobs
// ran (from the moment the first number entered the page, when the lab has mounted and started them),
// and what it downloaded before its first number (gzip); then the bundle sizes. Then the lab's own
// compute and draw times at the heaviest settings and the time from a slider move to the redrawn
// charts, against the 16 ms frame.
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync, brotliCompressSync } from 'node:zlib';
import { launchBrowser, median, newPage, openLab, serveDist, waitDrawn } from './harness.mjs';

const server = await serveDist();
const browser = await launchBrowser();

// [lab, link, the first number's test id, the status line that empties when every job is done, or
// `value:` and a number that becomes finite then]
const CASES = [
  ['rr', '?lab=rr', 'rr-p-truth', null],
  ['rr (heavy)', '?lab=rr&n=1e7&k=50&reps=1000&seed=1', 'rr-p-truth', 'rr-status'],
  ['rr shuffle (n = 10⁵)', '?lab=rr&shuffle=1&n=100000&eps=4', 'rr-p-truth', 'value:rr-shuffle-eps'],
  ['rr shuffle (n = 10⁷)', '?lab=rr&shuffle=1&n=10000000&eps=1', 'rr-p-truth', 'value:rr-shuffle-eps'],
  ['mechanisms', '?lab=mechanisms', 'mech-sigma-analytic', null],
  ['compose', '?lab=compose', 'compose-eps-basic', 'compose-status'],
  ['compose (heavy)', '?lab=compose&list=lap:0.01*100000,gauss:2*1000&delta=1e-5', 'compose-eps-basic', 'compose-status'],
  ['dpsgd', '?lab=dpsgd', 'dpsgd-eps-rdp', 'dpsgd-status'],
  ['dpsgd (heavy)', '?lab=dpsgd&q=0.01&sigma=1&steps=100000&delta=1e-5&target_eps=3', 'dpsgd-eps-rdp', 'dpsgd-status'],
  ['dpsgd samplers (Abadi, all seven)', '?lab=dpsgd&sampler=shuffle', 'dpsgd-eps-rdp', 'dpsgd-sampler-status'],
  ['attack', '?lab=attack', 'attack-eps', 'attack-status'],
  ['wdp fig 1', '?lab=wdp&fig=1', 'wdp-fig1-value', null],
  ['wdp fig 2', '?lab=wdp&fig=2&seed=1', 'wdp-fig2-final-wdp', 'value:wdp-fig2-ms'],
  ['tangent', '?lab=tangent', 'tdp-norm-tv', 'tdp-status'],
  ['tangent (41², N=10³)', '?lab=tangent&model=linear2d&loss=logistic&n=1000&wgrid=-3:3:41', 'tdp-norm-tv', 'tdp-status'],
  ['tangent (200², N=10⁴)', '?lab=tangent&model=linear2d&n=10000&wgrid=-3:3:200', 'tdp-norm-tv', 'tdp-status'],
  ['train', '?lab=train', 'train-q', 'train-status'],
  ['train (spiral, MLP 16,16)', '?lab=train&data=spiral&n=1000&model=mlp&hidden=16,16&steps=2000', 'train-q', 'train-status'],
  ['train audit (1,000 + 1,000 runs)', '?lab=train&audit=runs&runs=1000', 'train-q', 'value:train-audit-eps-cp'],
  ['train LiRA (64 shadow models)', '?lab=train&mia=lira&shadows=64', 'train-q', 'value:train-mia-auc'],
  ['mf', '?lab=mf', 'mf-sigma-gaussian', null],
  ['mf (T = 10⁵, 4 passes)', '?lab=mf&steps=100000&epochs=4', 'mf-sigma-gaussian', null],
  ['about', '?lab=about', 'about-sides', null],
];

/** Installed before the page's own scripts: records when each test id first appears and every long task. */
function watch([firstId, statusId]) {
  window.__bench = { found: null, first: null, done: null, tasks: [] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__bench.tasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
  const check = () => {
    const b = window.__bench;
    if (b.found === null && document.querySelector(`[data-testid="${firstId}"]`)) {
      b.found = performance.now();
      // On screen: a message posted from the next frame callback runs after that frame's style, layout and paint.
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => { b.first = performance.now(); };
        channel.port2.postMessage(null);
      });
    }
    const byValue = statusId && statusId.startsWith('value:');
    const el = statusId && document.querySelector(`[data-testid="${statusId.replace('value:', '')}"]`);
    const over = !statusId || (el && (byValue ? Number.isFinite(parseFloat(el.dataset.value)) : el.textContent.trim() === ''));
    if (b.found !== null && b.done === null && over) {
      b.done = performance.now();
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
}

const dist = new URL('../../dist/', import.meta.url);
const sizes = readdirSync(dist).filter((f) => /\.(wasm|js|css|html)$/.test(f)).map((f) => {
  const bytes = readFileSync(new URL(f, dist));
  return { file: f, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, brotli: brotliCompressSync(bytes).length };
});
const gzipOf = Object.fromEntries(sizes.map((s) => [s.file, s.gzip]));

const rows = [];
/** One cold load of `link`: the times, the longest tasks and what was downloaded (numbers; NaN for none). */
async function measure(link, firstId, statusId) {
  const page = await newPage(browser);
  await page.addInitScript(watch, [firstId, statusId]);
  await page.goto(`${server.url}${link}`);
  await page.waitForFunction(() => window.__bench && window.__bench.done !== null && window.__bench.first !== null, null, { timeout: 120_000 }).catch(async (e) => { console.log(link, await page.evaluate(() => window.__bench)); throw e; });
  // Let late long tasks (drawing the last results) be reported.
  await page.waitForTimeout(300);
  const b = await page.evaluate(() => window.__bench);
  // What the page fetched before its first number: the page's own files, and the worker module's.
  const fetched = await page.evaluate((first) => [location.href, ...performance.getEntriesByType('resource')
    .filter((e) => e.startTime < first).map((e) => e.name)], b.found);
  const files = fetched.map((u) => new URL(u).pathname.split('/').pop() || 'index.html');
  const kb = (pick) => files.filter(pick).reduce((a, f) => a + (gzipOf[f] ?? 0), 0) / 1024;
  const isWorker = (f) => f.startsWith('dp-playground-worker');
  // Jobs start when the lab mounts (its first number enters the page), so the window opens then.
  const during = b.tasks.filter(([t]) => t >= b.found && t < b.done + 300).map(([, d]) => d);
  const load = b.tasks.filter(([t]) => t < b.found).map(([, d]) => d);
  await page.context().close();
  return {
    first: b.first, done: statusId ? b.done : NaN, during: Math.max(0, ...during), load: Math.max(0, ...load),
    page: kb((f) => !isWorker(f)), worker: kb(isWorker),
  };
}

// Each link is loaded BENCH_RUNS times (default 3): the table shows medians, and the first number's range.
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
for (const [name, link, firstId, statusId] of CASES.filter(([n]) => new RegExp(process.env.BENCH_CASES ?? '').test(n))) {
  if (process.env.BENCH_VERBOSE) console.log(name);
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await measure(link, firstId, statusId));
  const m = (k) => median(runs.map((r) => r[k]));
  const firsts = runs.map((r) => r.first);
  const task = (ms) => (ms < 50 ? '< 50' : ms.toFixed(0));
  rows.push({
    link: name,
    'first number (ms)': `${m('first').toFixed(0)} (${Math.min(...firsts).toFixed(0)}–${Math.max(...firsts).toFixed(0)})`,
    'all jobs done (ms)': statusId ? m('done').toFixed(0) : '—',
    'longest task after it, while jobs ran (ms)': statusId ? task(m('during')) : '—',
    'longest task until the first number (ms)': task(m('load')),
    'page download (KB gzip)': m('page').toFixed(0),
    'worker module (KB gzip)': m('worker').toFixed(0),
  });
}
console.table(rows);
console.log('page download: every file the page fetched before its first number (the document, styles, the lab\'s glue and module), gzip -9; the worker module is the compute code heavy labs load');
console.table(sizes);

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
/**
 * Twenty ε slider moves on `query`. For each: the time from the input event until every chart in view
 * has been redrawn (a MutationObserver sees each canvas's data-drawn change), the work a frame must hold;
 * and until the frame that shows it has been painted (a message posted from the next frame callback
 * runs after that frame's style, layout and paint), which adds the wait for the screen's next frame.
 */
async function sliderMoves(query, ready, firstChart, only = null) {
  const page = await openLab(await newPage(browser), server.url, query, ready);
  await waitDrawn(page, firstChart);
  await page.waitForTimeout(500);
  const redrawn = [];
  const painted = [];
  for (let i = 0; i < 20; i++) {
    const eps = (0.5 + i * 0.1).toFixed(2);
    const [work, paint] = await page.evaluate(async ([value, only]) => {
      // Charts off screen wait until they scroll into view, so only those in sight are redrawn; a row
      // may name the one chart ε moves (the correlated-noise lab's heat maps do not depend on ε).
      const ids = [...document.querySelectorAll('canvas[data-testid]')]
        .filter((c) => { const r = c.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; })
        .map((c) => c.dataset.testid)
        .filter((id) => !only || id === only);
      const before = Object.fromEntries(ids.map((id) => [id, document.querySelector(`[data-testid="${id}"]`).dataset.drawn]));
      const slider = document.querySelector('[data-testid="slider-eps"]');
      const start = performance.now();
      const drawn = new Promise((resolve) => {
        const pending = new Set(ids);
        const observer = new MutationObserver(() => {
          for (const id of [...pending]) {
            if (document.querySelector(`[data-testid="${id}"]`).dataset.drawn !== before[id]) pending.delete(id);
          }
          if (pending.size === 0) { observer.disconnect(); resolve(performance.now() - start); }
        });
        observer.observe(document.querySelector('main'), { attributes: true, subtree: true, attributeFilter: ['data-drawn'] });
      });
      const shown = new Promise((resolve) => requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve(performance.now() - start);
        channel.port2.postMessage(null);
      }));
      slider.value = value;
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      return [await drawn, await shown];
    }, [eps, only]);
    redrawn.push(work);
    painted.push(paint);
    await page.waitForTimeout(50);
  }
  const charts = await page.evaluate(() => [...document.querySelectorAll('canvas')].filter((c) => { const r = c.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; }).length);
  await page.context().close();
  const median = (xs) => [...xs].sort((a, b) => a - b)[10];
  const max = (xs) => Math.max(...xs);
  return { page, charts, redrawn: median(redrawn), redrawnMax: max(redrawn), painted: median(painted), paintedMax: max(painted) };
}

// The training lab: its first curve point after navigation, the default run in the worker (from its
// first message to its last; cold on load, then warm after Reset and Play), and the training gradients
// per second in the worker (`cargo bench --bench train` prints the native figure;
// scripts/bench-train.sh prints the ratio).
{
  const rows = [];
  for (let i = 0; i < RUNS; i++) {
    const page = await newPage(browser);
    await page.addInitScript(() => {
      new MutationObserver(() => {
        const v = (id) => Number(document.querySelector(`[data-testid="${id}"]`)?.dataset.value);
        if (window.__point === undefined && Number.isFinite(v('train-acc-test'))) window.__point = performance.now();
      }).observe(document, { subtree: true, childList: true, attributes: true });
    });
    await page.goto(`${server.url}?lab=train`);
    const idle = () => page.waitForFunction(() => document.querySelector('[data-testid="train-status"]')?.textContent === '', null, { timeout: 60_000 });
    await idle();
    const cold = Number(await page.getAttribute('[data-testid="train-ms"]', 'data-value'));
    const point = await page.evaluate(() => window.__point);
    const done = await page.evaluate(() => performance.now());
    await page.click('[data-testid="train-reset"]');
    await idle();
    await page.click('[data-testid="train-play"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="train-steps"]')?.dataset.value === '427');
    await idle();
    const warm = Number(await page.getAttribute('[data-testid="train-ms"]', 'data-value'));
    const rate = Number(await page.getAttribute('[data-testid="train-grad-rate"]', 'data-value'));
    rows.push({ point, cold, warm, rate, done });
    await page.close();
  }
  const med = (k) => rows.map((r) => r[k]).sort((a, b) => a - b)[Math.floor(rows.length / 2)];
  console.log(`training lab, default link (medians of ${RUNS}): first curve point ${med('point').toFixed(0)} ms after navigation; `
    + `the run in the worker ${med('cold').toFixed(0)} ms cold, ${med('warm').toFixed(0)} ms warm; every job (run, PLD, sweep of 8 σ × 5 seeds) done ${med('done').toFixed(0)} ms after navigation`);
  console.log(`training lab: wasm per-example gradients per second (warm run, one worker) ${med('rate').toFixed(0)}`);
}
const sliderRows = [];
for (const [name, query, ready, chart, only] of [
  ['rr (default)', '?lab=rr&seed=1', 'rr-p-truth', 'rr-chart-histogram'],
  ...['gaussian', 'laplace', 'tlap', 'exponential'].map((mech) => [`mechanisms, ${mech}`, `?lab=mechanisms&mech=${mech}&seed=1`, 'mech-sigma-analytic', 'mech-chart-queries']),
  ['correlated noise, T = 2000', '?lab=mf&steps=2000', 'mf-sigma-gaussian', 'mf-error-chart', 'mf-error-chart'],
  ['correlated noise, T = 10⁵', '?lab=mf&steps=100000', 'mf-sigma-gaussian', 'mf-error-chart', 'mf-error-chart'],
]) {
  const m = await sliderMoves(query, ready, chart, only);
  sliderRows.push({
    link: name,
    'charts in view': m.charts,
    'to charts redrawn, median (max) ms': `${m.redrawn.toFixed(1)} (${m.redrawnMax.toFixed(1)})`,
    'of a 16 ms frame': (m.redrawn / 16).toFixed(2),
    'to the frame painted, median (max) ms': `${m.painted.toFixed(1)} (${m.paintedMax.toFixed(1)})`,
  });
}
console.log('ε slider moves (20 each): from the input event to every chart in view redrawn, and to the next frame painted (adds the wait for the frame)');
console.table(sliderRows);
await browser.close();
await server.close();
