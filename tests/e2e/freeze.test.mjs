// Never a frozen page: extreme and mangled links on every lab (tiny and huge σ, q, T, ε, δ) keep the
// page's thread answering. For each link: navigate, wait for the lab's first number, then the longest
// main-thread task since navigation (PerformanceObserver longtask) must stay under 200 ms.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openTimed, serveDist } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const LINKS = [
  ['?lab=dpsgd&sigma=0.001', 'dpsgd-eps-rdp'],
  ['?lab=dpsgd&sigma=1e-6', 'dpsgd-eps-rdp'],
  ['?lab=dpsgd&sigma=0.05&q=0.5&steps=10000000', 'dpsgd-eps-rdp'],
  ['?lab=dpsgd&sigma=9999&q=1e-9&delta=1e-300', 'dpsgd-eps-rdp'],
  ['?lab=compose&list=sgauss:0.01:0.001*1000', 'compose-eps-basic'],
  ['?lab=compose&list=sgauss:0.999:0.01*100000,gauss:0.0001*1000&delta=1e-12', 'compose-eps-basic'],
  ['?lab=compose&list=lap:1e-9*1000000', 'compose-eps-basic'],
  ['?lab=compose&list=trunc:10000000000:0.0001:1000000:1*1000', 'compose-eps-basic'],
  ['?lab=dpsgd&sampler=truncated&n=10000000000&q=0.5&cap=1', 'dpsgd-eps-rdp'],
  ['?lab=mechanisms&mech=gaussian&eps=1e-9&delta=1e-300', 'mech-sigma-analytic'],
  ['?lab=mechanisms&mech=gaussian&eps=500&delta=0.999', 'mech-sigma-analytic'],
  ['?lab=mechanisms&mech=tlap&eps=1e-9&delta=1e-300', 'mech-sigma-analytic'],
  ['?lab=rr&eps=1e-9&k=50&n=1e9', 'rr-p-truth'],
  ['?lab=rr&eps=700&k=2', 'rr-p-truth'],
  ['?lab=attack&source=dpsgd&q=1&sigma=0.001&steps=10000000', 'attack-eps'],
  ['?lab=train&sigma=0.001&stop=1&target_eps=0.01', 'train-q'],
  ['?lab=train&sigma=1e-6&q=1&steps=100000&data=highdim&dim=1000&n=20000', 'train-q'],
  ['?lab=train&epochs=1e4&q=1e-9', 'train-q'],
];

for (const [link, ready] of LINKS) {
  test(`the page's thread answers: ${link}`, async () => {
    const { page, longest } = await openTimed(browser, server.url, link, ready);
    assert.ok(longest < 200, `longest main-thread task ${longest} ms`);
    assert.ok(!/NaN/.test(await page.textContent('.results')), 'NaN on the page');
    await page.close();
  });
}
