// Accessibility: axe-core (an npm dev dependency) over every lab's default link and its embed, at
// 1280 px and on a 390 px phone, once its staged sections are in: no WCAG 2.0/2.1 A or AA violation
// and none of axe's best practices.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { launchBrowser, newPage, openLab, serveDist } from './harness.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const LABS = [
  ['rr', 'rr-p-truth'], ['mechanisms', 'mech-sigma-analytic'], ['compose', 'compose-eps-basic'],
  ['dpsgd', 'dpsgd-eps-rdp'], ['attack', 'attack-eps'], ['wdp', 'wdp-fig1-value'], ['tangent', 'tdp-norm-tv'], ['mf', 'mf-sigma-gaussian'],
  ['train', 'train-q'], ['images', 'images-eps'], ['about', 'about-sides'], ['start', 'start'], ['teach', 'teach'],
];

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

for (const [lab, ready] of LABS) {
  for (const [view, width] of [['', 1280], ['&embed=1', 1280], ['', 390], ['&embed=1', 390]]) {
    test(`no WCAG 2.1 A/AA violation or best-practice finding: ?lab=${lab}${view} at ${width} px`, async () => {
      const viewport = { width, height: width > 600 ? 900 : 844 };
      const page = await openLab(await newPage(browser, { viewport }), server.url, `?lab=${lab}${view}`, ready);
      await page.addScriptTag({ path: AXE });
      const violations = await page.evaluate(async () => {
        const result = await axe.run(document, {
          runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
        });
        return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help}; ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
      });
      assert.deepEqual(violations, []);
      await page.close();
    });
  }
}
