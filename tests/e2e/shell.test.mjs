// Browser tests of the app shell: navigation, the About page, unknown labs, "Copy link".
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, newPage, openLab, serveDist, SUB_PATH } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

test('the navigation switches labs, carries only keys both labs share, keeps the sub-path; Back restores', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=rr&eps=0.5&n=100&seed=3');
  // Issue 29, finding 1: RR's n (respondents) once became the DP-SGD lab's data set size (ε read 54).
  const dpsgd = new URL(await page.getAttribute('[data-testid="nav-dpsgd"]', 'href'), page.url());
  assert.equal(dpsgd.search, '?lab=dpsgd');
  const train = new URL(await page.getAttribute('[data-testid="nav-train"]', 'href'), page.url());
  assert.equal(train.search, '?lab=train&seed=3');
  await page.click('[data-testid="nav-about"]');
  await page.waitForSelector('[data-testid="formulas-rr"]');
  const url = new URL(page.url());
  assert.equal(url.pathname, SUB_PATH);
  assert.equal(url.searchParams.get('eps'), null);
  assert.ok((await page.locator('[data-testid="formulas-rr"] dt').count()) >= 5);
  await page.goBack();
  await page.waitForSelector('[data-testid="rr-p-truth"]');
  assert.equal(new URL(page.url()).searchParams.get('lab'), 'rr');
  assert.equal(new URL(page.url()).searchParams.get('eps'), '0.5');
  assert.deepEqual(page.problems, []);
});

test('an unknown lab opens the default one with a message', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=nope&eps=2');
  assert.match(await page.locator('[data-testid="notices"]').innerText(), /lab = "nope"/);
  assert.deepEqual(page.problems, []);
});

test('the bare address opens the landing view, which downloads no worker', async () => {
  const { page, wasm } = await openRecording('', 'start');
  assert.ok(await page.locator('[data-testid="start-rr"]').isVisible());
  assert.equal(await page.getAttribute('[data-testid="nav-start"]', 'aria-current'), 'page');
  await page.waitForTimeout(300);
  assert.deepEqual(wasm.filter((f) => !f.startsWith('lab-start-')), [], `${wasm}`);
  assert.deepEqual(page.problems, []);
});

test('"Copy link" copies the address that restores the view', async () => {
  const page = await newPage(browser, { permissions: ['clipboard-read', 'clipboard-write'] });
  await openLab(page, server.url, '?lab=rr&eps=3&k=4&seed=11');
  await page.click('[data-testid="copy-link"]');
  await page.waitForSelector('.copy-status:has-text("Link copied.")');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, page.url());
  const again = await openLab(await newPage(browser), '', copied);
  assert.equal(await again.getAttribute('[data-testid="rr-estimate-0"]', 'data-value'),
    await page.getAttribute('[data-testid="rr-estimate-0"]', 'data-value'));
  assert.deepEqual(page.problems, []);
});

test('switching labs in quick succession, and back and forward, never kills the page', async () => {
  // A lab left mid-frame once panicked: a frame callback of one of its charts read a disposed signal.
  const page = await openLab(await newPage(browser), server.url, '?lab=dpsgd', 'dpsgd-eps-rdp');
  const labs = ['compose', 'mechanisms', 'dpsgd', 'wdp', 'tangent', 'rr', 'compose', 'dpsgd', 'mechanisms'];
  for (let round = 0; round < 3; round++) {
    for (const [i, lab] of labs.entries()) {
      await page.click(`[data-testid="nav-${lab}"]`);
      await page.waitForTimeout((i * 7 + round * 5) % 23);
    }
    for (let i = 0; i < 4; i++) {
      await page.goBack();
      await page.waitForTimeout(i * 6);
    }
    for (let i = 0; i < 4; i++) {
      await page.goForward();
      await page.waitForTimeout(i * 4);
    }
  }
  await page.click('[data-testid="nav-rr"]');
  await page.waitForSelector('[data-testid="rr-p-truth"]');
  await page.waitForTimeout(500);
  assert.deepEqual(page.problems, []);
});

// Each lab is its own page module (web/src/bin/lab-*.rs); index.html's loader picks one from the link.
const LAB_READY = {
  rr: 'rr-p-truth', mechanisms: 'mech-sigma-analytic', compose: 'compose-eps-basic', dpsgd: 'dpsgd-eps-rdp',
  attack: 'attack-eps', wdp: 'wdp-fig1-value', tangent: 'tdp-norm-tv', train: 'train-q', about: 'about-sides',
  mf: 'mf-sigma-gaussian', images: 'images-eps',
};

/** Opens `query` and records every .wasm file the page asks for. */
async function openRecording(query, readyId) {
  const page = await newPage(browser);
  const wasm = [];
  page.on('request', (r) => { if (r.url().endsWith('.wasm')) wasm.push(new URL(r.url()).pathname.split('/').pop()); });
  await openLab(page, server.url, query, readyId);
  return { page, wasm };
}

test('a link downloads its own lab\'s module and no other; the light labs never fetch the worker module', async () => {
  for (const [lab, ready] of Object.entries(LAB_READY)) {
    const { page, wasm } = await openRecording(`?lab=${lab}`, ready);
    const modules = wasm.filter((f) => f.startsWith('lab-'));
    assert.equal(modules.length, 1, `${lab}: ${wasm}`);
    assert.match(modules[0], new RegExp(`^lab-${lab}-[0-9a-f]{16}_bg\\.wasm$`));
    if (['rr', 'about', 'wdp'].includes(lab)) {
      await page.waitForTimeout(300);
      assert.ok(!wasm.some((f) => f.startsWith('dp-playground-worker')), `${lab} fetched the worker: ${wasm}`);
    }
    // The navigation reaches other labs with a page load (they live in other modules).
    assert.equal(await page.getAttribute('[data-testid="nav-about"]', 'rel'), lab === 'about' ? null : 'external');
    assert.deepEqual(page.problems, []);
    await page.close();
  }
});

test('the loader and the core read the lab key alike, and a link they would read apart is rewritten, never looped', async () => {
  // [query, the lab shown, whether a notice names the lab key]
  const cases = [
    ['?lab=%20tangent%20', 'tangent', false],
    ['?lab=+tangent', 'tangent', false],
    ['?lab=tangent&lab=rr', 'tangent', false],
    ['?lab=TANGENT', 'rr', true],
    ['?lab=', 'start', false],
    // U+FEFF: JavaScript's trim drops it, Rust's does not; the page settles on one lab.
    ['?lab=%EF%BB%BFtangent', null, null],
  ];
  for (const [query, lab, notice] of cases) {
    const page = await newPage(browser);
    let loads = 0;
    page.on('load', () => { loads += 1; });
    await page.goto(`${server.url}${query}`);
    await page.waitForSelector('main');
    await page.waitForTimeout(800);
    const current = await page.getAttribute('a[aria-current="page"]', 'data-testid');
    if (lab) assert.equal(current, `nav-${lab}`, query);
    await page.waitForSelector(`[data-testid="${LAB_READY[current.replace('nav-', '')] ?? 'start'}"]`);
    assert.ok(loads <= 2, `${query}: ${loads} page loads`);
    if (notice !== null) {
      const notices = await page.locator('[data-testid="notices"]').innerText().catch(() => '');
      assert.equal(/lab = /.test(notices), notice, `${query}: ${notices}`);
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  }
});

test('each tab names its lab; "Reset to defaults" clears the lab\'s keys and keeps the view options', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=dpsgd&sigma=2&n=100&threads=1', 'dpsgd-eps-rdp');
  assert.equal(await page.title(), 'DP-SGD · dp-playground');
  // Issue 29: the default batch with n = 100 is a visible notice, never a silent q = 1.
  assert.ok(await page.isVisible('[data-testid="notice-batch"]'));
  await page.click('[data-testid="reset-defaults"]');
  await page.waitForFunction(() => !new URLSearchParams(location.search).has('sigma'));
  assert.equal(new URL(page.url()).search, '?lab=dpsgd&threads=1');
  assert.equal(await page.inputValue('[data-testid="input-sigma"]'), '1.1');
  await page.click('[data-testid="nav-train"]');
  await page.waitForSelector('[data-testid="train-q"]');
  assert.equal(await page.title(), 'Training · dp-playground');
  assert.deepEqual(page.problems, []);
});

test('Back undoes a discrete change (a preset, a select); typing adds no history entry', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=dpsgd&sigma=1.3', 'dpsgd-eps-rdp');
  const entries = () => page.evaluate(() => history.length);
  const start = await entries();
  // Typing replaces the entry.
  await page.fill('[data-testid="input-sigma"]', '1.4');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('sigma') === '1.4');
  assert.equal(await entries(), start);
  // A preset adds one; Back restores the typed σ.
  await page.click('[data-testid="preset-0"]');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('sigma') !== '1.4');
  assert.equal(await entries(), start + 1);
  await page.goBack();
  await page.waitForFunction(() => new URLSearchParams(location.search).get('sigma') === '1.4');
  assert.equal(await page.inputValue('[data-testid="input-sigma"]'), '1.4');
  // A select (the neighbouring relation) adds one too; Back returns to add/remove.
  await page.selectOption('[data-testid="select-neighbour"]', 'replace-one');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('neighbour') === 'replace-one');
  await page.goBack();
  await page.waitForFunction(() => new URLSearchParams(location.search).get('neighbour') !== 'replace-one');
  assert.notEqual(await page.inputValue('[data-testid="select-neighbour"]'), 'replace-one');
  assert.deepEqual(page.problems, []);
  await page.close();
});
