// Dev helper (not a test): times the tangent lab's report in headless Chromium for a few sizes, and the
// longest gap between animation frames while it runs (a frozen page would show the whole run here).
// node tests/e2e/bench_tangent.mjs   (after scripts/build.sh)
import { serveDist, launchBrowser, newPage } from './harness.mjs';

const cases = [
  '?lab=tangent',
  '?lab=tangent&model=linear2d&loss=logistic&n=1000&wgrid=-3:3:41',
  '?lab=tangent&model=linear2d&n=10000&wgrid=-3:3:200',
];
const site = await serveDist();
const browser = await launchBrowser();
try {
  for (const query of cases) {
    const page = await newPage(browser);
    await page.addInitScript(() => {
      window.__gaps = [];
      let last = performance.now();
      const tick = (t) => {
        const status = document.querySelector('[data-testid="tdp-status"]');
        window.__gaps.push([t - last, status ? status.textContent : '']);
        last = t;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    await page.goto(`${site.url}${query}`);
    await page.waitForSelector('[data-testid="tdp-norm-tv"]', { timeout: 600_000 });
    const ms = await page.getAttribute('[data-testid="tdp-ms"]', 'data-value');
    // Then the sweeps, the Monte Carlo and the Langevin chain, until the status line is empty.
    await page.waitForFunction(() => document.querySelector('[data-testid="tdp-status"]').textContent === '',
      null, { timeout: 600_000 });
    const [gap, during] = await page.evaluate(() =>
      window.__gaps.slice(5).reduce((a, b) => (b[0] > a[0] ? b : a), [0, '']));
    console.log(`${query}: report ${Number(ms).toFixed(0)} ms, longest frame gap ${gap.toFixed(0)} ms (${during || 'at the end'})`);
    await page.close();
  }
} finally {
  await browser.close();
  await site.close();
}
