// Browser tests of embedding, sharing and export: an embedding page on another origin, controls= and
// lock=1, PNG/SVG/CSV downloads, the share panel, the single-file build from file://, keyboard access
// and the phone layout.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { launchBrowser, newPage, openLab, serveDist, valueOf, waitDrawn } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Serves one HTML page on its own port (a different origin from the playground). */
async function serveHost(html) {
  const host = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
  await new Promise((ok) => host.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${host.address().port}/course/week3.html`, close: () => new Promise((ok) => host.close(ok)) };
}

test('two labs embedded in a course page on another origin show their numbers and size themselves', async () => {
  // The host script is the one the share panel hands out.
  const shareable = await openLab(await newPage(browser), server.url, '?lab=rr');
  await shareable.click('[data-testid="share-open"]');
  const hostScript = await shareable.inputValue('[data-testid="share-host-script"]');
  const html = `<!doctype html><title>Week 3</title><h1>Week 3: randomized response</h1>
    <iframe id="rr" src="${server.url}?lab=rr&eps=2&k=2&seed=3&embed=1" style="width:900px;border:0" height="300"></iframe>
    <iframe id="mech" src="${server.url}?lab=mechanisms&mech=gaussian&eps=0.5&delta=1e-6&sens=2&embed=1" style="width:900px;border:0" height="300"></iframe>
    ${hostScript}
    <script>window.heightLog = []; addEventListener('message', (e) => window.heightLog.push(JSON.stringify(e.data)));</script>`;
  const host = await serveHost(html);
  try {
    const page = await newPage(browser);
    await page.goto(host.url);
    const rr = page.frameLocator('#rr');
    const mech = page.frameLocator('#mech');
    await rr.locator('[data-testid="rr-p-truth"]').waitFor();
    const p = Number(await rr.locator('[data-testid="rr-p-truth"]').getAttribute('data-value'));
    assert.ok(Math.abs(p - Math.exp(2) / (1 + Math.exp(2))) < 1e-12, `p = ${p}`);
    // dp_accounting 0.6.0: 2 · get_sigma_gaussian(0.5, 1e-6) = 16.115236961450048.
    await mech.locator('[data-testid="mech-sigma-analytic"]').waitFor();
    const sigma = Number(await mech.locator('[data-testid="mech-sigma-analytic"]').getAttribute('data-value'));
    assert.ok(Math.abs(sigma / 16.115236961450048 - 1) < 1e-9, `σ = ${sigma}`);
    assert.equal(await rr.locator('.site-header').count(), 0, 'no site header when embedded');
    const full = await rr.locator('[data-testid="open-full"]').getAttribute('href');
    assert.ok(full.includes('eps=2') && !full.includes('embed'), full);
    // The host script sized both iframes to their content (far more than the initial 300 px).
    const sized = () => ['rr', 'mech'].every((id) => parseFloat(document.getElementById(id).style.height) > 600);
    await page.waitForFunction(sized, null, { timeout: 10_000 }).catch(async (e) => {
      const state = await page.evaluate(() => [['rr', 'mech'].map((id) => document.getElementById(id).style.height), window.heightLog]);
      throw new Error(`${e.message}: ${JSON.stringify(state)}`);
    });
    assert.deepEqual(page.problems, []);
  } finally {
    await host.close();
  }
});

test('controls= shows only the listed controls and lock=1 makes the view read-only', async () => {
  let page = await openLab(await newPage(browser), server.url, '?lab=rr&embed=1&controls=eps');
  assert.ok(await page.isVisible('[data-testid="input-eps"]'));
  assert.ok(!(await page.isVisible('[data-testid="input-k"]')));
  assert.ok(!(await page.isVisible('[data-testid="input-seed"]')));
  page = await openLab(await newPage(browser), server.url, '?lab=rr&lock=1&eps=1.5');
  assert.ok(await page.isDisabled('[data-testid="slider-eps"]'));
  assert.equal(await page.getAttribute('[data-testid="input-eps"]', 'readonly'), '');
  const before = page.url();
  await page.locator('[data-testid="input-eps"]').press('End');
  await page.keyboard.type('9');
  await page.waitForTimeout(300);
  assert.equal(page.url(), before, 'a locked view never rewrites its link');
  page = await openLab(await newPage(browser), server.url, '?lab=rr&embed=1&lock=1&controls=');
  assert.ok(!(await page.isVisible('[data-testid="input-eps"]')), 'controls= with no keys hides every control');
  assert.ok(await page.isVisible('[data-testid="rr-p-truth"]'), 'the key numbers stay');
  assert.deepEqual(page.problems, []);
});

test('every chart downloads as a 2× PNG, an SVG and a CSV with named columns', async () => {
  const page = await openLab(await newPage(browser, { acceptDownloads: true }), server.url, '?lab=mechanisms&mech=laplace', 'mech-sigma-analytic');
  await waitDrawn(page, 'mech-chart-densities');
  const cssWidth = await page.evaluate(() => document.querySelector('[data-testid="mech-chart-densities"]').clientWidth);
  const fetch = async (button) => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid="${button}"]`)]);
    return { name: download.suggestedFilename(), body: await readFile(await download.path()) };
  };
  const png = await fetch('mech-chart-densities-png');
  assert.equal(png.name, 'mech-densities.png');
  assert.equal(png.body.subarray(1, 4).toString(), 'PNG');
  assert.equal(png.body.readUInt32BE(16), 2 * cssWidth, 'PNG width is twice the CSS width');
  const svg = await fetch('mech-chart-densities-svg');
  assert.equal(svg.name, 'mech-densities.svg');
  assert.match(svg.body.toString(), /<svg[\s\S]*<\/svg>/);
  assert.match(svg.body.toString(), /Output y/);
  const csv = await fetch('mech-chart-densities-csv');
  const lines = csv.body.toString().trim().split('\n');
  assert.equal(lines[0], 'series,"x: Output y","y: Density"');
  assert.ok(lines.length > 200);
  await waitDrawn(page, 'mech-chart-queries');
  const rrPage = await openLab(await newPage(browser, { acceptDownloads: true }), server.url, '?lab=rr');
  await waitDrawn(rrPage, 'rr-chart-frequencies');
  const [d] = await Promise.all([rrPage.waitForEvent('download'), rrPage.click('[data-testid="rr-chart-frequencies-svg"]')]);
  assert.match((await readFile(await d.path())).toString(), /<svg/);
  assert.deepEqual(page.problems, []);
  assert.deepEqual(rrPage.problems, []);
});

test('the share panel offers a live link, iframe, Markdown numbers and a dp_accounting check', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=mechanisms&eps=0.5&delta=1e-6&sens=2', 'mech-sigma-analytic');
  await page.click('[data-testid="share-open"]');
  assert.match(await page.inputValue('[data-testid="share-iframe"]'), /<iframe src="http:\/\/127\.0\.0\.1:\d+\/courses\/privacy\/playground\/\?lab=mechanisms&amp;eps=0\.5.*embed=1"/);
  assert.match(await page.inputValue('[data-testid="share-markdown"]'), /\| ε \| 0\.5 \|/);
  assert.match(await page.inputValue('[data-testid="share-snippet"]'), /2 \* gaussian_mechanism\.get_sigma_gaussian\(0\.5, 0\.000001\)/);
  await page.fill('[data-testid="input-eps"]', '0.7');
  await page.waitForFunction(() => document.querySelector('[data-testid="share-link"]').value.includes('eps=0.7'));
  assert.match(await page.inputValue('[data-testid="share-iframe"]'), /eps=0\.7/);
  assert.deepEqual(page.problems, []);
});

test('the single-file build opens from file:// at the landing view, and a lab from its link', async () => {
  const page = await newPage(browser);
  const file = new URL('../../dist-single/dp-playground.html', import.meta.url);
  await page.goto(file.href);
  await page.waitForSelector('[data-testid="start"]', { timeout: 30_000 });
  await page.goto(`${file.href}?lab=rr`);
  await page.waitForSelector('[data-testid="rr-p-truth"]', { timeout: 30_000 });
  assert.ok(Math.abs(await valueOf(page, 'rr-p-truth') - Math.E / (1 + Math.E)) < 1e-12);
  await waitDrawn(page, 'rr-chart-frequencies');
  assert.deepEqual(page.problems, []);
});

test('the keyboard alone reaches every control of the randomized-response lab', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=rr');
  const reached = new Set();
  for (let i = 0; i < 120; i++) {
    await page.keyboard.press('Tab');
    reached.add(await page.evaluate(() => document.activeElement?.dataset?.testid ?? document.activeElement?.id ?? ''));
  }
  for (const id of ['input-eps', 'slider-eps', 'input-k', 'slider-k', 'input-n', 'input-truth', 'truth-normalise',
    'input-reps', 'slider-reps', 'input-seed', 'new-seed', 'select-cat', 'rr-chart-frequencies-png', 'share-open']) {
    assert.ok(reached.has(id), `Tab never reaches ${id}`);
  }
});

test('the labs fit a 360 px phone screen without sideways scrolling', async () => {
  for (const query of ['?lab=rr', '?lab=mechanisms']) {
    const page = await openLab(await newPage(browser, { viewport: { width: 360, height: 740 } }), server.url, query, query.includes('mech') ? 'mech-sigma-analytic' : 'rr-p-truth');
    await page.waitForTimeout(300);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 1, `${query}: page is ${overflow}px wider than the screen`);
  }
});

test('inside an embed, links to other labs open a new tab; outside, the page itself', async () => {
  const embedded = await openLab(await newPage(browser), server.url, '?lab=dpsgd&embed=1', 'dpsgd-eps-rdp');
  for (const id of ['dpsgd-attack-link', 'dpsgd-train-link']) {
    assert.equal(await embedded.getAttribute(`[data-testid="${id}"]`, 'target'), '_blank', id);
  }
  const page = await openLab(await newPage(browser), server.url, '?lab=dpsgd', 'dpsgd-eps-rdp');
  assert.equal(await page.getAttribute('[data-testid="dpsgd-attack-link"]', 'target'), null);
  assert.deepEqual([...embedded.problems, ...page.problems], []);
  await embedded.close();
  await page.close();
});

test('the embed snippet keeps controls= and lock=, takes the embed\'s height in a course column, and lists the lab\'s controls by label; unknown names get a notice', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=dpsgd&controls=sigma,noise', 'dpsgd-eps-rdp');
  const notice = await page.textContent('[data-testid="notice-controls"]');
  assert.match(notice, /controls = noise names no control of this lab/);
  assert.match(notice, /n, batch, sigma, epochs/);
  await page.click('[data-testid="share-open"]');
  // The unknown name is dropped from the snippet (the share panel's checklist lists the page's controls).
  await page.waitForFunction(() => /controls=sigma[&"]/.test(document.querySelector('[data-testid="share-iframe"]')?.value));
  // Its height is the embed's own in a 760 px column, measured in a hidden frame (course.test.mjs
  // holds it to the content's).
  await page.waitForFunction(() => document.querySelector('[data-testid="share-iframe-height"]')?.dataset.value, null, { timeout: 30_000 });
  const [snippet, measured] = await page.evaluate(() => [document.querySelector('[data-testid="share-iframe"]').value,
    document.querySelector('[data-testid="share-iframe-height"]').dataset.value]);
  assert.match(snippet, new RegExp(`height="${measured}"`));
  assert.doesNotMatch(snippet, /course=1/, 'the course material stays out unless the author keeps it');
  assert.match(await page.textContent('label:has([data-testid="share-control-sigma"])'), /Noise multiplier σ/);
  assert.deepEqual(page.problems, []);
  await page.close();
});
