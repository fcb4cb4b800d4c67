// Browser tests of what a first-time user tripped over (issue 29), one or more per finding, reading the
// page: legends off the data in exported SVGs, short numbers in links, the share panel's embed choices,
// the glossary and the plain-language introduction, the headline and the narrow layout, the slider after
// a refused value. Findings 1, 5 and 8 are in shell.test.mjs and embed.test.mjs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { launchBrowser, newPage, openLab, serveDist, waitDrawn } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const LABS = [
  ['rr', 'rr-p-truth'], ['mechanisms', 'mech-sigma-analytic'], ['compose', 'compose-eps-basic'],
  ['dpsgd', 'dpsgd-eps-rdp'], ['attack', 'attack-beta-at-alpha'], ['train', 'train-q'],
  ['tangent', 'tdp-ms'], ['wdp', 'lab-headline'], ['mf', 'mf-sigma-gaussian'],
];

/** The chart's SVG export, as text. */
async function svgOf(page, chart) {
  await waitDrawn(page, chart);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid="${chart}-svg"]`)]);
  return (await readFile(await download.path())).toString();
}

/** Asserts that nothing drawn before the legend box (grid lines and white aside) lies inside it; the
 * same check as the charts' native test (web/src/charts/legend.rs). */
function assertLegendClear(svg, name) {
  const elements = svg.split('<').slice(1);
  const at = elements.findIndex((e) => e.startsWith('rect') && e.includes('opacity="0.88"'));
  assert.ok(at > 0, `${name}: a legend is drawn`);
  const num = (e, k) => Number((e.match(new RegExp(` ${k}="([^"]*)"`)) ?? [])[1]);
  const lb = elements[at];
  const [x0, y0] = [num(lb, 'x'), num(lb, 'y')];
  const [x1, y1] = [x0 + num(lb, 'width'), y0 + num(lb, 'height')];
  const inside = (x, y) => x > x0 && x < x1 && y > y0 && y < y1;
  const grid = (e) => /(stroke|fill)="#(E1E1E1|D7D7D7|FFFFFF)"/.test(e);
  for (const e of elements.slice(0, at)) {
    if (grid(e) || e.startsWith('text') || e.startsWith('/')) continue;
    if (e.startsWith('circle')) assert.ok(!inside(num(e, 'cx'), num(e, 'cy')), `${name}: legend over a point`);
    if (e.startsWith('polyline')) {
      const pts = (e.match(/points="([^"]*)"/)?.[1] ?? '').trim().split(/\s+/).map((p) => p.split(',').map(Number));
      for (let i = 1; i < pts.length; i++) {
        for (let k = 0; k <= 16; k++) {
          const t = k / 16;
          const [x, y] = [pts[i - 1][0] + t * (pts[i][0] - pts[i - 1][0]), pts[i - 1][1] + t * (pts[i][1] - pts[i - 1][1])];
          assert.ok(!inside(x, y), `${name}: legend over a line at (${x}, ${y})`);
        }
      }
    }
    if (e.startsWith('rect')) {
      const [x, y] = [num(e, 'x'), num(e, 'y')];
      assert.ok(!(x < x1 && x + num(e, 'width') > x0 && y < y1 && y + num(e, 'height') > y0), `${name}: legend over a bar`);
    }
  }
}

test('finding 3: legends sit off the data, and an off-scale series says so', async () => {
  const cases = [
    ['?lab=rr', 'rr-p-truth', ['rr-chart-frequencies']],
    ['?lab=rr&k=10', 'rr-p-truth', ['rr-chart-frequencies']],
    ['?lab=mechanisms', 'mech-sigma-analytic', ['mech-chart-densities']],
    ['?lab=compose', 'compose-eps-basic', ['compose-chart']],
    ['?lab=dpsgd', 'dpsgd-eps-rdp', ['dpsgd-chart-orders', 'dpsgd-chart-steps']],
  ];
  for (const [link, ready, charts] of cases) {
    const page = await openLab(await newPage(browser, { acceptDownloads: true }), server.url, link, ready);
    for (const chart of charts) {
      const svg = await svgOf(page, chart);
      assertLegendClear(svg, `${link} ${chart}`);
      assert.doesNotMatch(svg, /\de-1\d/, `${chart}: no float noise in ticks`);
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  }
  // The composition lab's list whose basic composition runs far above the others' scale.
  const page = await openLab(await newPage(browser, { acceptDownloads: true }), server.url, '?lab=compose&list=gauss:20*2000', 'compose-eps-basic');
  const svg = await svgOf(page, 'compose-chart');
  assertLegendClear(svg, 'compose, many Gaussians');
  await page.close();
});

test('finding 2: the DP-SGD lab writes q to the attack lab as its exact ratio, and the field shows it', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=dpsgd', 'dpsgd-eps-rdp');
  const href = await page.getAttribute('[data-testid="dpsgd-attack-link"]', 'href');
  assert.match(href, /[?&]q=256\/60000(&|$)/);
  await page.click('[data-testid="dpsgd-attack-link"]');
  await page.waitForSelector('[data-testid="attack-beta-at-alpha"]', { state: 'attached' });
  assert.equal(await page.inputValue('[data-testid="input-q"]'), '256/60000');
  assert.ok(!(await page.isVisible('[data-testid="notice-q"]')), 'the ratio is accepted');
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('finding 4: the share panel ticks the embed\'s controls and makes it read-only', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=dpsgd&controls=sigma', 'dpsgd-eps-rdp');
  await page.click('[data-testid="share-open"]');
  const snippet = () => page.inputValue('[data-testid="share-iframe"]');
  assert.ok(await page.isChecked('[data-testid="share-control-sigma"]'), 'starts from the page\'s controls=');
  assert.ok(!(await page.isChecked('[data-testid="share-control-epochs"]')));
  await page.check('[data-testid="share-control-epochs"]');
  assert.match(await snippet(), /controls=sigma,epochs/);
  await page.uncheck('[data-testid="share-control-sigma"]');
  assert.match(await snippet(), /controls=epochs[&"]/);
  assert.doesNotMatch(await snippet(), /lock=1/);
  await page.check('[data-testid="share-read-only"]');
  assert.match(await snippet(), /lock=1/);
  // Every control ticked: no controls= at all.
  for (const box of await page.$$('[data-testid^="share-control-"]')) await box.check();
  assert.doesNotMatch(await snippet(), /controls=/);
  // The page itself keeps its own view.
  assert.ok(!(await page.isVisible('[data-testid="input-epochs"]')));
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('finding 6: ε and δ in plain words where a student meets them, and a glossary on hover, focus and tap', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=mechanisms', 'mech-sigma-analytic');
  const plain = await page.innerText('[data-testid="mech-plain"]');
  assert.match(plain, /ε says how much/);
  assert.match(plain, /δ is the small chance/);
  const tip = '[data-testid="term-tip-bad-set"]';
  assert.ok(!(await page.isVisible(tip)));
  await page.hover('[data-testid="term-bad-set"]');
  assert.ok(await page.isVisible(tip), 'hover shows the meaning');
  assert.match(await page.textContent(tip), /ratio of the two output densities/);
  await page.mouse.move(0, 0);
  await page.focus('[data-testid="term-privacy-loss"]');
  await page.keyboard.press('Tab');
  assert.ok(await page.isVisible('[data-testid="term-tip-privacy-profile"]'), 'keyboard focus shows the meaning');
  assert.deepEqual(page.problems, []);
  await page.close();
  // A phone: a tap opens the meaning, a tap elsewhere closes it.
  const phone = await browser.newContext({ viewport: { width: 390, height: 800 }, hasTouch: true, isMobile: true });
  const tapPage = await phone.newPage();
  await tapPage.goto(`${server.url}?lab=dpsgd`);
  await tapPage.waitForSelector('[data-testid="term-pld"]');
  // Tapped once the headline has its final numbers (it wraps to fewer lines then, and the term moves).
  await tapPage.waitForFunction(() => !document.querySelector('[data-after-paint="pending"]')
    && document.querySelector('[data-testid="dpsgd-status"]')?.textContent.trim() === '', null, { timeout: 60_000 });
  await tapPage.tap('[data-testid="term-pld"]');
  assert.ok(await tapPage.isVisible('[data-testid="term-tip-pld"]'), 'a tap shows the meaning');
  await tapPage.tap('h2');
  assert.ok(!(await tapPage.isVisible('[data-testid="term-tip-pld"]')), 'a tap elsewhere hides it');
  await phone.close();
  // The About page opens with an introduction and lists every term.
  const about = await openLab(await newPage(browser), server.url, '?lab=about', 'about-intro');
  assert.match(await about.textContent('[data-testid="about-intro"]'), /differentially private when its output hardly depends/);
  const terms = await about.$$eval('[data-testid="about-glossary"] dt', (dts) => dts.map((d) => d.textContent));
  for (const t of ['bad set', 'privacy profile', 'f-DP', 'zCDP', 'RDP order', 'PLD', 'i.i.d.']) {
    assert.ok(terms.some((x) => x.includes(t)), `the glossary has ${t}`);
  }
  await about.close();
});

test('finding 7: every lab has a headline with a number, read out when it changes; compute times are collapsed', async () => {
  for (const [lab, ready] of LABS) {
    const page = await openLab(await newPage(browser), server.url, `?lab=${lab}`, ready);
    const headline = page.locator('[data-testid="lab-headline"]');
    await page.waitForFunction(() => /\d/.test(document.querySelector('[data-testid="lab-headline"]')?.textContent ?? ''), null, { timeout: 30_000 });
    assert.equal(await headline.getAttribute('aria-live'), 'polite', lab);
    const diagnostics = await page.$$('[data-testid="diagnostics"]');
    for (const d of diagnostics) assert.equal(await d.evaluate((e) => e.open), false, `${lab}: diagnostics start closed`);
    assert.deepEqual(page.problems, [], lab);
    await page.close();
  }
  const page = await openLab(await newPage(browser), server.url, '?lab=dpsgd', 'dpsgd-eps-rdp');
  await page.waitForFunction(() => /certified by the PLD/.test(document.querySelector('[data-testid="lab-headline"]').textContent), null, { timeout: 30_000 });
  const text = await page.textContent('[data-testid="lab-headline"]');
  assert.match(text, /^σ = 1\.1 over 14\s063 steps gives ε ≤ 2\.\d+ at δ = 1×10⁻⁵, certified by the PLD\.$/);
  assert.ok(!(await page.isVisible('[data-testid="dpsgd-pld-ms"]')), 'compute times collapsed');
  await page.close();
});

test('finding 7: at 390 px the headline and the main chart come before the controls, and every control is 44 px tall', async () => {
  for (const [lab, ready, chart] of [['dpsgd', 'dpsgd-eps-rdp', 'dpsgd-chart-steps'], ['rr', 'rr-p-truth', 'rr-chart-frequencies'], ['mechanisms', 'mech-sigma-analytic', 'mech-chart-densities']]) {
    const page = await openLab(await newPage(browser, { viewport: { width: 390, height: 800 } }), server.url, `?lab=${lab}`, ready);
    const top = (sel) => page.evaluate((s) => document.querySelector(s).getBoundingClientRect().top + scrollY, sel);
    const controls = await top('aside.controls');
    assert.ok(await top('[data-testid="lab-headline"]') < 700, `${lab}: the headline on the first screen`);
    assert.ok(await top(`[data-testid="${chart}"]`) < controls, `${lab}: the main chart before the controls`);
    await page.click('[data-testid="jump-controls"]');
    assert.ok(await page.evaluate(() => document.activeElement.closest('aside.controls') !== null), `${lab}: the jump lands in the controls`);
    const small = await page.evaluate(() => [...document.querySelectorAll('button:not(.term-word), select, input[type="text"], input[type="range"], .site-header nav a')]
      .filter((e) => e.offsetParent !== null)
      .map((e) => [e.dataset.testid ?? e.textContent.trim(), e.getBoundingClientRect().height])
      .filter(([, h]) => h < 44 - 0.5));
    assert.deepEqual(small, [], `${lab}: targets below 44 px`);
    assert.deepEqual(page.problems, []);
    await page.close();
  }
});

test('finding 9: the slider shows the value in use after a refused one; the exponential mechanism folds the noise table away', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=dpsgd&sigma=1.5', 'dpsgd-eps-rdp');
  await page.fill('[data-testid="input-sigma"]', '1e9');
  await page.waitForSelector('[data-testid="notice-sigma"]:not([hidden])');
  assert.equal(await page.inputValue('[data-testid="input-sigma"]'), '1e9', 'the refused text stays visible');
  assert.equal(Number(await page.inputValue('[data-testid="slider-sigma"]')), 1.1, 'the slider shows the default in use, not its maximum');
  await page.close();
  const em = await openLab(await newPage(browser), server.url, '?lab=mechanisms&mech=exponential', 'mech-sigma-analytic');
  assert.equal(await em.$eval('[data-testid="mech-calibration-details"]', (d) => d.open), false);
  assert.ok(!(await em.isVisible('[data-testid="mech-calibration"]')));
  const gauss = await openLab(await newPage(browser), server.url, '?lab=mechanisms', 'mech-sigma-analytic');
  assert.ok(await gauss.isVisible('[data-testid="mech-calibration"]'));
  assert.deepEqual([...em.problems, ...gauss.problems], []);
  await em.close();
  await gauss.close();
});
