// Where a cold load's time goes (not a test): `node tests/e2e/trace_load.mjs '<link>' <test id>` after a
// build. Loads the link in a fresh context under a Chromium trace, waits for the test id's number, and
// prints, in ms from the trace's start: the page's and its workers' scripts and messages (each worker
// job is one HandlePostMessage), the page thread's busy time and the browser's optimising compiles
// per 100 ms, then the trace's heaviest events by thread. The trace stays in /tmp/dp-trace.json.
import { readFileSync } from 'node:fs';
import { finiteValueOf, launchBrowser, newPage, openLab, serveDist } from './harness.mjs';

const link = process.argv[2] ?? '?lab=dpsgd';
const id = process.argv[3] ?? 'dpsgd-pld-ms';
const path = '/tmp/dp-trace.json';
const server = await serveDist();
const browser = await launchBrowser();
const page = await newPage(browser);
await browser.startTracing(page, { path, categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.wasm', 'disabled-by-default-v8.compile', 'loading'] });
await openLab(page, server.url, link, id);
console.log(`${id} = ${await finiteValueOf(page, id)}`);
await page.waitForTimeout(1500);
await browser.stopTracing();
await browser.close();
await server.close();

const events = JSON.parse(readFileSync(path, 'utf8')).traceEvents;
const thread = {};
for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') thread[`${e.pid}:${e.tid}`] = e.args.name;
const nameOf = (e) => thread[`${e.pid}:${e.tid}`] ?? '?';
// The page's renderer (Chromium may run others, e.g. its own UI, in the same trace).
const pid = events.find((e) => e.name === 'ResourceSendRequest' && String(e.args?.data?.url).includes('lab='))?.pid;
const mine = events.filter((e) => e.pid === pid && e.ph === 'X' && e.dur);
const t0 = Math.min(...events.filter((e) => e.ts > 0 && e.ph !== 'M').map((e) => e.ts));
const ms = (us) => (us / 1000).toFixed(0).padStart(6);
for (const e of mine.filter((e) => ['EvaluateScript', 'HandlePostMessage', 'wasm.SyncCompile'].includes(e.name)
  && !(e.name === 'HandlePostMessage' && nameOf(e) === 'CrRendererMain')).sort((a, b) => a.ts - b.ts)) {
  console.log(ms(e.ts - t0), ms(e.dur), `${nameOf(e)} ${e.tid}`, e.name);
}
const per100 = (pick) => {
  const b = {};
  for (const e of mine.filter(pick)) {
    const k = Math.floor((e.ts - t0) / 1e5);
    b[k] = (b[k] ?? 0) + e.dur / 1000;
  }
  return Object.entries(b).map(([k, v]) => `${k * 100}:${v.toFixed(0)}`).join(' ');
};
console.log('page thread busy per 100 ms:', per100((e) => nameOf(e) === 'CrRendererMain' && e.name === 'RunTask'));
console.log('optimising compiles per 100 ms:', per100((e) => e.name === 'wasm.ExecuteCompilationUnits'));
const total = {};
for (const e of mine) {
  const k = `${nameOf(e)} | ${e.name}`;
  total[k] = (total[k] ?? 0) + e.dur / 1000;
}
for (const [k, v] of Object.entries(total).sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(v.toFixed(1).padStart(8), k);
