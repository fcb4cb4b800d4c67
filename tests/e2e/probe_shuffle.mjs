import { launchBrowser, newPage, openLab, serveDist, valueOf } from './harness.mjs';
const server = await serveDist(); const browser = await launchBrowser();
for (const link of process.argv.slice(2)) {
  const page = await openLab(await newPage(browser), server.url, link, 'rr-p-truth');
  const t0 = Date.now();
  await page.waitForFunction(() => Number.isFinite(parseFloat(document.querySelector('[data-testid="rr-shuffle-eps"]')?.dataset.value)), null, { timeout: 300000 });
  const t1 = Date.now() - t0;
  await page.waitForFunction(() => document.querySelector('[data-testid="rr-shuffle-status"]')?.textContent.trim() === '', null, { timeout: 300000 });
  console.log(link, 'headline', t1, 'ms; curve', Date.now() - t0, 'ms', await valueOf(page, 'rr-shuffle-eps'), await valueOf(page, 'rr-shuffle-eps-lower'), page.problems);
  await page.close();
}
await browser.close(); await server.close();
