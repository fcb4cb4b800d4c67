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
      const tick = (t) => { window.__gaps.push(t - last); last = t; requestAnimationFrame(tick); };
      requestAnimationFrame(tick);
    });
    await page.goto(`${site.url}${query}`);
    await page.waitForSelector('[data-testid="tdp-norm-tv"]', { timeout: 600_000 });
    const ms = await page.getAttribute('[data-testid="tdp-ms"]', 'data-value');
    const gap = await page.evaluate(() => Math.max(...window.__gaps.slice(5)));
    console.log(`${query}: report ${Number(ms).toFixed(0)} ms, longest frame gap ${gap.toFixed(0)} ms`);
    await page.close();
  }
} finally {
  await browser.close();
  await site.close();
}
