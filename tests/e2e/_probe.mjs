import { serveDist, launchBrowser, newPage, openLab, waitDrawn } from './harness.mjs';
const site = await serveDist(); const browser = await launchBrowser();
const page = await openLab(await newPage(browser), site.url, process.argv[2], process.argv[3] ?? 'mech-sigma-analytic');
await page.waitForTimeout(1500);
for (let i = 0; i < 8; i++) {
  const r = await page.evaluate(async (value) => {
    const marks = {};
    const start = performance.now();
    const slider = document.querySelector('[data-testid="slider-eps"]');
    const obs = new MutationObserver((list) => {
      for (const m of list) {
        const t = performance.now() - start;
        const el = m.target.nodeType === 1 ? m.target : m.target.parentElement;
        const id = el?.closest('[data-testid]')?.dataset.testid ?? el?.tagName;
        if (!(id in marks)) marks[id] = t.toFixed(1);
      }
    });
    obs.observe(document.body, { attributes: true, childList: true, characterData: true, subtree: true });
    slider.value = value;
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    const sync = performance.now() - start;
    await new Promise((r) => setTimeout(r, 200));
    obs.disconnect();
    return { sync: sync.toFixed(1), marks };
  }, (1 + i * 0.1).toFixed(2));
  console.log(JSON.stringify(r));
}
await browser.close(); await site.close();
