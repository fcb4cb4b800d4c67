// Browser test of the font warm-up (web/warm-fonts.js): every font a lab's text uses, and every
// character it prints in the page or in its charts, was looked up before the lab's first layout. A font
// missing from the list costs no correctness, but brings back a long task while the lab's jobs run.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, newPage, openLab, serveDist, waitDrawn } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const LINKS = [
  ['?lab=rr&k=50', 'rr-p-truth', 'rr-chart-histogram'],
  ['?lab=rr&eps=abc', 'rr-p-truth', null],
  ['?lab=mechanisms&mech=exponential', 'mech-sigma-analytic', null],
  ['?lab=mechanisms&mech=tlap', 'mech-sigma-analytic', 'mech-chart-queries'],
  ['?lab=compose', 'compose-eps-basic', null],
  ['?lab=dpsgd', 'dpsgd-eps-rdp', null],
  ['?lab=attack', 'attack-eps', null],
  ['?lab=wdp&fig=1', 'wdp-fig1-value', null],
  ['?lab=wdp&fig=2&seed=1', 'wdp-fig2-final-wdp', null],
  ['?lab=tangent', 'tdp-norm-tv', null],
  ['?lab=train&data=xor&model=mlp', 'train-q', null],
  ['?lab=about', 'about-sides', null],
];

test('the page warms every font and character the labs use', async () => {
  for (const [query, ready, chart] of LINKS) {
    const page = await newPage(browser);
    // Records what the charts write on their canvases.
    await page.addInitScript(() => {
      window.canvasText = '';
      window.canvasFonts = new Set();
      const fill = CanvasRenderingContext2D.prototype.fillText;
      CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
        window.canvasText += text;
        window.canvasFonts.add(this.font);
        return fill.call(this, text, ...rest);
      };
    });
    await openLab(page, server.url, query, ready);
    if (chart) await waitDrawn(page, chart);
    // The warm-up runs in steps (web/warm-fonts.js); its box is complete once they are done.
    await page.waitForFunction(() => document.getElementById('dp-font-warm')?.dataset.done === 'true');
    const found = await page.evaluate(() => {
      const key = (el) => { const s = getComputedStyle(el); return `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`; };
      const warm = document.getElementById('dp-font-warm');
      const warmed = new Set([...warm.children].map(key));
      const used = new Set();
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) if (n.textContent.trim()) used.add(key(n.parentElement));
      for (const el of document.querySelectorAll('input, select, option, button, textarea')) used.add(key(el));
      const text = document.body.innerText + document.body.textContent + window.canvasText;
      const chars = new Set([...text].filter((c) => c.codePointAt(0) > 126));
      // A letter with a combining mark is looked up as one cluster.
      const marked = new Set(text.match(/\P{M}\p{M}+/gu) ?? []);
      return {
        fonts: [...used].filter((f) => !warmed.has(f)),
        chars: [...chars].filter((c) => !warm.textContent.includes(c)).map((c) => `U+${c.codePointAt(0).toString(16)} ${c}`),
        marked: [...marked].filter((m) => !warm.textContent.includes(m)),
        canvas: [...window.canvasFonts].filter((f) => f !== warm.dataset.canvasFont),
      };
    });
    assert.deepEqual(found.fonts, [], `${query}: fonts not in web/warm-fonts.js`);
    assert.deepEqual(found.chars, [], `${query}: characters not in web/warm-fonts.js`);
    assert.deepEqual(found.marked, [], `${query}: marked letters not in web/warm-fonts.js's MARKED`);
    assert.deepEqual(found.canvas, [], `${query}: chart fonts other than web/warm-fonts.js's CANVAS`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});
