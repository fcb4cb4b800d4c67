// Dev helper (not a test): node tests/e2e/screenshot.mjs '<query>' out.png [width]
// Serves dist/ under the sub-path, opens the query in headless Chromium, waits for charts, saves a
// full-page PNG (or SHOT_ELEMENT=<selector>'s) and prints any console problems. SHOT_CLICK='<sel>|<sel>'
// clicks each selector first (e.g. to open a panel), waiting SHOT_WAIT after each.
import { serveDist, launchBrowser, newPage } from './harness.mjs';

const [query = '?lab=mechanisms', out = '/tmp/shot.png', width = '1280'] = process.argv.slice(2);
const site = await serveDist();
const browser = await launchBrowser();
try {
  const page = await newPage(browser, { viewport: { width: Number(width), height: 900 } });
  await page.goto(`${site.url}${query}`);
  await page.waitForSelector(process.env.SHOT_READY ?? 'canvas[data-drawn]', { timeout: 20000 });
  await page.waitForTimeout(Number(process.env.SHOT_WAIT ?? 800));
  for (const sel of (process.env.SHOT_CLICK ?? '').split('|').filter(Boolean)) {
    await page.click(sel);
    await page.waitForTimeout(Number(process.env.SHOT_WAIT ?? 800));
  }
  if (process.env.SHOT_ELEMENT) {
    await page.locator(process.env.SHOT_ELEMENT).screenshot({ path: out });
  } else {
    await page.screenshot({ path: out, fullPage: process.env.SHOT_FULL !== '0' });
  }
  console.log(page.problems.length ? page.problems.join('\n') : 'console clean');
} finally {
  await browser.close();
  await site.close();
}
