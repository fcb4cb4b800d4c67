// Browser tests of the course features (issue 50): the landing view and the course path, embeds that
// fit a 760 px course column (controls near the top, show=/course=, heights both ways, the snippet's
// height), lock=1 disabling every control, the print layout, the phone layout, and the keyboard.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { launchBrowser, newPage, openLab, serveDist } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const READY = {
  rr: 'rr-p-truth', mechanisms: 'mech-sigma-analytic', compose: 'compose-eps-basic', dpsgd: 'dpsgd-eps-rdp',
  train: 'train-q', attack: 'attack-eps',
};
const COURSE = ['rr', 'mechanisms', 'compose', 'dpsgd', 'train', 'attack'];
const HOST_SCRIPT = `<script>
addEventListener('message', (e) => { if (e.data && e.data.type === 'dp-playground:height')
  for (const f of document.querySelectorAll('iframe')) if (f.contentWindow === e.source) f.style.height = e.data.height + 'px'; });
</script>`;

/** Serves one HTML page on its own port (another origin than the playground's). */
async function serveHost(html) {
  const host = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
  await new Promise((ok) => host.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${host.address().port}/course/week3.html`, close: () => new Promise((ok) => host.close(ok)) };
}

/** A course page with one iframe (760 px wide, the column) showing `query`, and the host script. */
async function column(query, { script = true } = {}) {
  const host = await serveHost(`<!doctype html><title>Week 3</title><h1>Week 3</h1>
    <iframe id="lab" title="lab" src="${server.url}${query}" style="width:760px;border:0" height="300"></iframe>${script ? HOST_SCRIPT : ''}`);
  const page = await newPage(browser, { viewport: { width: 800, height: 900 } });
  await page.goto(host.url);
  return { page, frame: page.frameLocator('#lab'), host };
}

test('the landing view lists the course path in order, the papers apart; the navigation is grouped alike', async () => {
  const page = await openLab(await newPage(browser), server.url, '', 'start');
  const path = await page.locator('[data-testid="start-group-course"] li').evaluateAll((lis) => lis.map((li) => li.dataset.testid));
  assert.deepEqual(path, COURSE.map((l) => `start-${l}`));
  const papers = await page.locator('[data-testid="start-group-papers"] li').evaluateAll((lis) => lis.map((li) => li.dataset.testid));
  assert.deepEqual(papers, ['start-wdp', 'start-tangent', 'start-mf', 'start-images']);
  const nav = await page.locator('nav a[data-group="course"]').evaluateAll((as) => as.map((a) => a.dataset.testid));
  assert.deepEqual(nav, COURSE.map((l) => `nav-${l}`));
  // The path's first link opens the lab.
  await page.click('[data-testid="start-rr"] a');
  await page.waitForSelector('[data-testid="rr-p-truth"]');
  assert.deepEqual(page.problems, []);
});

test('each course lab ends with a link to the next, and the last one leads back to the start', async () => {
  for (const [i, lab] of COURSE.entries()) {
    const page = await openLab(await newPage(browser), server.url, `?lab=${lab}`, READY[lab]);
    if (i + 1 < COURSE.length) {
      const href = await page.getAttribute('[data-testid="next-lab"]', 'href');
      assert.equal(new URL(href, page.url()).searchParams.get('lab'), COURSE[i + 1], lab);
    } else {
      assert.ok(await page.isVisible('[data-testid="next-lab-end"]'));
    }
    assert.deepEqual(page.problems, [], lab);
    await page.close();
  }
});

test('in a 760 px column the shown controls come within 400 px of the frame\'s top', async () => {
  const cases = [
    ['?lab=rr&controls=eps,k&embed=1', 'input-eps'],
    ['?lab=mechanisms&eps=0.5&controls=eps,delta&lock=1&embed=1', 'input-eps'],
    ['?lab=dpsgd&controls=sigma,target_eps&embed=1', 'input-sigma'],
  ];
  for (const [query, control] of cases) {
    const { page, frame, host } = await column(query);
    const field = frame.locator(`[data-testid="${control}"]`);
    await field.waitFor();
    const top = await field.evaluate((el) => el.getBoundingClientRect().top + el.ownerDocument.defaultView.scrollY);
    assert.ok(top <= 400, `${query}: ${control} at ${top} px`);
    // Nothing warns that a listed control does not exist.
    assert.equal(await frame.locator('[data-testid="notice-controls"]').count(), 0, query);
    assert.deepEqual(page.problems, [], query);
    await page.close();
    await host.close();
  }
});

test('the posted height follows the content both ways', async () => {
  const { page, frame, host } = await column('?lab=rr&embed=1');
  try {
    await frame.locator('[data-testid="rr-p-truth"]').waitFor();
    const content = () => frame.locator('body').evaluate((b) => Math.ceil(b.getBoundingClientRect().height));
    const posted = () => page.evaluate(() => parseFloat(document.getElementById('lab').style.height));
    const settle = async () => {
      let last = -1;
      for (let i = 0; i < 40; i++) {
        await page.waitForTimeout(150);
        const [c, p] = [await content(), await posted()];
        if (c === p && c === last) return c;
        last = c;
      }
      return NaN;
    };
    const closed = await settle();
    assert.ok(closed > 600, `height ${closed}`);
    await frame.locator('[data-testid="rr-chart-frequencies-show-data"]').click();
    const opened = await settle();
    assert.ok(opened > closed + 50, `opened ${opened} vs closed ${closed}`);
    await frame.locator('[data-testid="rr-chart-frequencies-show-data"]').click();
    const again = await settle();
    assert.equal(again, closed, 'the frame shrinks back when the panel closes');
    assert.equal(await posted(), await content());
    assert.deepEqual(page.problems, []);
  } finally {
    await page.close();
    await host.close();
  }
});

test('the snippet\'s height is the embed\'s in a 760 px column (within 10 %)', async () => {
  for (const lab of ['rr', 'dpsgd']) {
    const page = await openLab(await newPage(browser), server.url, `?lab=${lab}`, READY[lab]);
    await page.click('[data-testid="share-open"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="share-iframe-height"]')?.dataset.value, null, { timeout: 30_000 });
    // The height settles as the embed's staged sections and jobs come in.
    await page.waitForTimeout(3000);
    const snippet = await page.inputValue('[data-testid="share-iframe"]');
    const height = Number(/height="(\d+)"/.exec(snippet)[1]);
    const src = /src="([^"]+)"/.exec(snippet)[1].replaceAll('&amp;', '&');
    const { page: host, frame, host: server2 } = await column(src.slice(server.url.length), { script: false });
    await frame.locator(`[data-testid="${READY[lab]}"]`).waitFor();
    await host.waitForTimeout(3000);
    const content = await frame.locator('body').evaluate((b) => b.getBoundingClientRect().height);
    assert.ok(Math.abs(height / content - 1) <= 0.1, `${lab}: snippet ${height} px, content ${content} px`);
    await host.close();
    await server2.close();
    await page.close();
  }
});

test('show= picks the sections and charts; course material stays out of an embed unless kept', async () => {
  let page = await openLab(await newPage(browser), server.url, '?lab=rr&embed=1&show=rr-chart-frequencies');
  assert.ok(await page.isVisible('[data-testid="rr-chart-frequencies"]'));
  assert.ok(!(await page.isVisible('[data-testid="diagnostics"]')));
  assert.equal(await page.locator('figure.chart:visible').count(), 1);
  await page.close();
  page = await openLab(await newPage(browser), server.url, '?lab=dpsgd&embed=1', 'dpsgd-eps-rdp');
  assert.ok(!(await page.isVisible('[data-testid="dpsgd-scenario1-laplace"]')), 'the lecture\'s scenarios are course material');
  assert.ok(await page.isVisible('[data-testid="dpsgd-samplers"]'));
  await page.close();
  page = await openLab(await newPage(browser), server.url, '?lab=dpsgd&embed=1&course=1', 'dpsgd-eps-rdp');
  assert.ok(await page.isVisible('[data-testid="dpsgd-scenario1-laplace"]'));
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('the share panel lists every control by its label, and every listed control exists', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=mechanisms', 'mech-sigma-analytic');
  await page.click('[data-testid="share-open"]');
  await page.waitForSelector('[data-testid="share-control-eps"]');
  const listed = await page.locator('[data-testid="share-controls"] label.check:has(input[data-testid^="share-control-"])')
    .evaluateAll((ls) => ls.map((l) => [l.querySelector('input').dataset.testid.replace('share-control-', ''), l.textContent.trim()]));
  const keys = listed.map(([k]) => k);
  for (const key of ['eps', 'delta', 'sigma', 'bad_eps', 'mech']) assert.ok(keys.includes(key), `${key} not listed: ${keys}`);
  for (const [key, label] of listed) {
    assert.notEqual(label, key, `${key} is listed by its key`);
    assert.ok(await page.locator(`#field-${key}, [data-testid="select-${key}"]`).count() >= 1, `${key} has no control`);
  }
  // Unticking a control leaves it out of the snippet's controls=.
  await page.uncheck('[data-testid="share-control-sigma"]');
  const snippet = await page.inputValue('[data-testid="share-iframe"]');
  assert.match(snippet, /controls=[^"&]*eps/);
  assert.doesNotMatch(snippet, /controls=[^"&]*sigma/);
  // The parts list names the course material and writes show= when one is left out.
  await page.uncheck('[data-testid="share-part-diagnostics"]');
  assert.match(await page.inputValue('[data-testid="share-iframe"]'), /show=/);
  assert.deepEqual(page.problems, []);
});

test('lock=1 disables every control of every course lab', async () => {
  const found = {};
  for (const lab of COURSE) {
    const page = await openLab(await newPage(browser), server.url, `?lab=${lab}&embed=1&lock=1`, READY[lab]);
    await page.waitForTimeout(300);
    const live = await page.evaluate(() => [...document.querySelectorAll('main input, main select, main textarea, main button')]
      .filter((el) => el.checkVisibility() && !el.disabled && !el.readOnly && !el.closest('.chart-buttons, .term'))
      .map((el) => el.dataset.testid || el.id || el.outerHTML.slice(0, 80)));
    if (live.length) found[lab] = live;
    await page.close();
  }
  assert.deepEqual(found, {}, 'live controls in a locked view');
});

test('printed, a lab shows no navigation and no button', async () => {
  for (const lab of ['rr', 'dpsgd']) {
    const page = await openLab(await newPage(browser), server.url, `?lab=${lab}`, READY[lab]);
    await page.emulateMedia({ media: 'print' });
    const visible = await page.evaluate(() => [...document.querySelectorAll('nav, button, input, select, textarea')]
      .filter((el) => el.checkVisibility()).map((el) => el.outerHTML.slice(0, 80)));
    assert.deepEqual(visible, [], lab);
    assert.ok(await page.isVisible('[data-testid="lab-headline"]'));
    await page.close();
  }
});

test('on a phone the headline stays in view while a slider far below it has the focus', async () => {
  const page = await openLab(await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }),
    server.url, '?lab=train', 'train-q');
  const slider = page.locator('[data-testid="slider-sigma"]');
  await slider.scrollIntoViewIfNeeded();
  await slider.focus();
  const [sliderTop, headline] = await page.evaluate(() => [
    document.querySelector('[data-testid="slider-sigma"]').getBoundingClientRect().top + scrollY,
    document.querySelector('[data-testid="lab-headline"]').getBoundingClientRect(),
  ]);
  assert.ok(sliderTop > 1500, `the slider is ${sliderTop} px down`);
  assert.ok(headline.top >= 0 && headline.bottom <= 844, `headline at ${headline.top}..${headline.bottom}`);
  // Cards sit two per row.
  const tops = await page.locator('.stats').first().locator('.stat').evaluateAll((s) => s.map((e) => Math.round(e.getBoundingClientRect().top)));
  assert.ok(tops.length < 2 || tops[0] === tops[1], `cards: ${tops}`);
  assert.deepEqual(page.problems, []);
});

test('the keyboard: a skip link first, and the data panels take the focus', async () => {
  const page = await openLab(await newPage(browser), server.url, '?lab=rr');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'skip-link');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'main');
  await page.click('[data-testid="rr-chart-frequencies-show-data"]');
  await page.focus('[data-testid="rr-chart-frequencies-data"]');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'rr-chart-frequencies-data');
  assert.deepEqual(page.problems, []);
});

const EXERCISES = JSON.parse(readFileSync(new URL('./exercises.json', import.meta.url)));

/** Opens the problem set holding one exercise (as a lab's exercise line links to it). */
async function sheetOf(ex) {
  const task = new URL(ex.link, 'http://x/').searchParams.get('task');
  return openLab(await newPage(browser), server.url, `?tasks=${task}`, `task-${ex.key}`);
}

test('every exercise accepts a right answer, refuses a wrong one, and its code reads back; its lab leads back to it', async () => {
  const codes = [];
  for (const ex of EXERCISES) {
    const page = await sheetOf(ex);
    const id = `task-${ex.key}`;
    await page.fill('[data-testid="task-name"]', 'Ann Lee');
    await page.fill(`[data-testid="${id}-answer"]`, String(ex.wrong));
    await page.click(`[data-testid="${id}-check"]`);
    // An exercise answered by a training run checks once the run is over.
    const verdict = () => page.waitForSelector(`[data-testid="${id}-verdict"][data-value]`, { timeout: 60_000 })
      .then((el) => el.getAttribute('data-value'));
    assert.equal(await verdict(), 'false', `${ex.link}: wrong accepted`);
    await page.fill(`[data-testid="${id}-answer"]`, String(ex.right));
    await page.press(`[data-testid="${id}-answer"]`, 'Enter');
    assert.equal(await verdict(), 'true', `${ex.link}: right refused`);
    codes.push(`Ann Lee, ${await page.textContent(`[data-testid="${id}-code"]`)}`);
    await page.click(`[data-testid="${id}-hint-button"]`);
    assert.ok(await page.isVisible(`[data-testid="${id}-hint"]`));
    // The exercise's lab link opens its lab with its settings and a line back to the question.
    const link = new URL(await page.getAttribute(`[data-testid="${id}-open"]`, 'href'), page.url());
    assert.equal(link.searchParams.get('lab'), ex.lab);
    assert.deepEqual(page.problems, [], ex.link);
    await page.close();
  }
  const lab = await openLab(await newPage(browser), server.url, EXERCISES[0].link, READY[EXERCISES[0].lab]);
  const back = new URL(await lab.getAttribute('[data-testid="exercise-answer"]', 'href'), lab.url());
  assert.equal(back.searchParams.get('tasks'), new URL(EXERCISES[0].link, 'http://x/').searchParams.get('task'));
  await lab.close();
  // The teacher's reader tells them right, and a code under another name apart.
  const teach = await openLab(await newPage(browser), server.url, '?lab=teach', 'teach');
  await teach.fill('[data-testid="codes-in"]', [...codes, codes[0].replace('Ann Lee', 'Bob Ray'), 'ZZZZ'].join('\n'));
  await teach.waitForFunction(() => ![...document.querySelectorAll('[data-testid="code-row"]')]
    .some((r) => r.dataset.value.startsWith('checking')), null, { timeout: 60_000 });
  const verdicts = await teach.locator('[data-testid="code-row"]').evaluateAll((rows) => rows.map((r) => r.dataset.value));
  assert.deepEqual(verdicts, [...codes.map(() => 'right'), 'right', 'unreadable']);
  assert.match(await teach.locator('[data-testid="code-row"]').nth(codes.length).innerText(), /another name/);
  assert.deepEqual(teach.problems, []);
});

test('the page\'s own numbers answer its exercises', async () => {
  // [exercise, the result in its lab that answers it]
  const cases = [
    ['rr-truth', 'rr-p-truth'], ['mech-sigma', 'mech-sigma-analytic'], ['train-eps', 'train-eps-rdp'],
    ['attack-tpr', 'attack-tpr-at-fpr'], ['attack-advantage', 'attack-advantage'],
  ];
  for (const [key, result] of cases) {
    const ex = EXERCISES.find((e) => e.key === key);
    const lab = await openLab(await newPage(browser), server.url, ex.link, READY[ex.lab]);
    await lab.waitForFunction((t) => Number.isFinite(parseFloat(document.querySelector(`[data-testid="${t}"]`)?.dataset.value)), result, { timeout: 60_000 });
    const value = Number(await lab.getAttribute(`[data-testid="${result}"]`, 'data-value'));
    assert.deepEqual(lab.problems, [], key);
    await lab.close();
    const page = await sheetOf(ex);
    await page.fill(`[data-testid="task-${key}-answer"]`, String(value));
    await page.click(`[data-testid="task-${key}-check"]`);
    assert.equal(await page.getAttribute(`[data-testid="task-${key}-verdict"]`, 'data-value'), 'true', `${key}: the lab shows ${value}`);
    await page.close();
  }
});

test('a problem set gives everyone the same exercises for one seed, and one per student with vary=student', async () => {
  const variants = async (query, name) => {
    const page = await openLab(await newPage(browser), server.url, query, 'problem-set');
    if (name) await page.fill('[data-testid="task-name"]', name);
    const v = await page.locator('section.task').evaluateAll((s) => s.map((e) => `${e.dataset.testid}:${e.dataset.variant}`));
    assert.deepEqual(page.problems, []);
    await page.close();
    return v;
  };
  const list = '?tasks=rr-truth,mech-sigma,dpsgd-steps&seed=42';
  const ann = await variants(list, 'Ann');
  assert.equal(ann.length, 3);
  assert.deepEqual(await variants(list, 'Bob'), ann);
  const annOwn = await variants(`${list}&vary=student`, 'Ann');
  assert.notDeepEqual(await variants(`${list}&vary=student`, 'Bob'), annOwn);
});

test('the accuracy exercise checks what the training lab shows: its run, in the page, to the end', async () => {
  const ex = EXERCISES.find((e) => e.key === 'train-cost');
  const lab = await openLab(await newPage(browser), server.url, ex.link, READY.train);
  await lab.waitForFunction(() => document.querySelector('[data-testid="train-status"]')?.textContent === ''
    && Number(document.querySelector('[data-testid="train-steps"]')?.dataset.value) > 0, null, { timeout: 60_000 });
  // As the cards show them (four significant digits), as a student reads them.
  const shown = async (id) => Number(await lab.textContent(`[data-testid="${id}"]`));
  const cost = (await shown('train-acc-baseline')) - (await shown('train-acc-test'));
  assert.ok(Number.isFinite(cost), 'the cards give the accuracies');
  await lab.close();
  const page = await sheetOf(ex);
  const id = `task-${ex.key}`;
  await page.fill(`[data-testid="${id}-answer"]`, cost.toFixed(4));
  await page.click(`[data-testid="${id}-check"]`);
  const verdict = await page.waitForSelector(`[data-testid="${id}-verdict"][data-value]`, { timeout: 60_000 });
  assert.equal(await verdict.getAttribute('data-value'), 'true', `the cards' difference ${cost} refused`);
  assert.deepEqual(page.problems, []);
});
