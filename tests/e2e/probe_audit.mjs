// Dev helper (not a test): node tests/e2e/probe_audit.mjs '<link>' … — opens audit (or mia=) links, prints
// the numbers and the wall time from the page's first paint to the audit's summary (or the attack's).
import { launchBrowser, newPage, openLab, serveDist, valueOf } from './harness.mjs';

const server = await serveDist();
const browser = await launchBrowser();
const links = process.argv.slice(2).length ? process.argv.slice(2) : ['?lab=train&audit=runs&runs=200', '?lab=train&audit=runs&runs=200&bug=mean-noise'];
for (const link of links) {
  const page = await openLab(await newPage(browser), server.url, link, 'train-q');
  const t0 = Date.now();
  const mia = link.includes('mia=');
  const last = mia ? 'train-mia-auc' : 'train-audit-eps-cp';
  await page.waitForFunction((id) => Number.isFinite(parseFloat(document.querySelector(`[data-testid="${id}"]`)?.dataset.value)), last, { timeout: 300_000 });
  const ids = mia
    ? ['train-mia-tpr-low-fpr', 'train-mia-auc', 'train-mia-tpr-low-fpr-baseline', 'train-mia-auc-baseline', 'train-mia-cap-tpr-low-fpr', 'train-mia-cap-auc']
    : ['train-audit-runs', 'train-audit-eps-cp', 'train-audit-eps-gdp', 'train-audit-eps-theory', 'train-audit-eps-last-iterate', 'train-audit-tpr-low-fpr', 'train-audit-auc'];
  const v = {};
  for (const id of ids) v[id] = await valueOf(page, id);
  if (!mia) v.contradiction = await page.getAttribute('[data-testid="train-audit-contradiction"]', 'data-value');
  console.log(link, `${Date.now() - t0} ms`, JSON.stringify(v), page.problems);
  await page.close();
}
await browser.close();
await server.close();
