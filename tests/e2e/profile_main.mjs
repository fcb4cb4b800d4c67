// Where the page's own thread spends a cold load (not a test): `node tests/e2e/profile_main.mjs '<link>'
// <test id>` after a build. Samples the page's main thread with V8's CPU profiler from navigation until
// the test id's number is in (and 0.8 s more), then prints self time by function, heaviest first.
// Forced layouts count in the script that forced them. The profile stays in /tmp/dp-main.cpuprofile
// (DevTools opens it). `trace_load.mjs` shows the workers and the browser's compiles beside it.
import { writeFileSync } from 'node:fs';
import { finiteValueOf, launchBrowser, newPage, serveDist } from './harness.mjs';

const link = process.argv[2] ?? '?lab=dpsgd';
const id = process.argv[3] ?? 'dpsgd-pld-ms';
const server = await serveDist();
const browser = await launchBrowser();
const page = await newPage(browser);
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await cdp.send('Profiler.start');
await page.goto(`${server.url}${link}`);
await finiteValueOf(page, id);
await page.waitForTimeout(800);
const { profile } = await cdp.send('Profiler.stop');
writeFileSync('/tmp/dp-main.cpuprofile', JSON.stringify(profile));
await browser.close();
await server.close();

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
profile.samples.forEach((sample, i) => {
  const { functionName, url } = nodes.get(sample).callFrame;
  const key = `${functionName || '(anonymous)'} ${url.split('/').pop()}`;
  self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
});
const total = [...self.values()].reduce((a, b) => a + b, 0);
console.log(`sampled ${total.toFixed(0)} ms`);
for (const [key, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
  console.log(ms.toFixed(1).padStart(8), key.slice(0, 120));
}
