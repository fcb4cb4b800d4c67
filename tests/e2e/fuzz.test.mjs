// Nothing bad reaches the page, fuzzed: seeded random links over every lab's keys (tests/e2e/lab-keys.json,
// printed by the core: each lab's parameters at their defaults, and its optional keys), each key set to an
// extreme, subnormal or mangled value. One page per lab and base path: the first link loads it, the rest
// are reached in the page (history.replaceState and a popstate, as Back would), so each link also carries
// the state the previous one left (a K of 50 with category 49, then a smaller K). A share of the runs
// serves the site under a path starting with `//`, where a link built as pathname + query leaves the site.
//
// After each link: no page error, console error or `unreachable`; no NaN among the results; no main-thread
// task above 200 ms since the page loaded (a second try decides, on a loaded 2-core machine); the page's
// thread answers within 5 s; every link the page built (<a href> not written as an absolute URL) and the
// address bar stay on the page's own origin and path. The first link of a page also moves a control.
//
// FUZZ_SEED (default: a fixed seed, so that CI's verdict does not change with the date; `FUZZ_SEED=date`
// takes today's, YYYYMMDD, to explore; always printed) replays a run; FUZZ_LINKS sets the total number of
// links (default 1000, about 4 minutes); FUZZ_LABS=rr,compose restricts the labs. The fixed list of
// known-bad links is freeze.test.mjs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launchBrowser, serveDist, timedPage } from './harness.mjs';

const KEYS = JSON.parse(readFileSync(new URL('./lab-keys.json', import.meta.url)));
/** The first number each lab shows. */
const READY = {
  rr: 'rr-p-truth', mechanisms: 'mech-sigma-analytic', compose: 'compose-eps-basic', dpsgd: 'dpsgd-eps-rdp',
  attack: 'attack-eps', wdp: 'wdp-fig1-value', tangent: 'tdp-norm-tv', train: 'train-q',
  mf: 'mf-sigma-gaussian', images: 'images-eps',
};
const EXTREMES = ['0', '-0', '-1', '1e-300', '1e-160', '1e-9', '1e-6', '0.001', '0.999', '1', '2', '50', '1e6', '1e9',
  '1e300', '1e308', '-1e308', '1e400', 'NaN', 'inf', '-inf', '', 'abc', '%', '1,2', '0x10', ' 1 ', '9007199254740993',
  // Subnormal and denormal-producing values (issue 53): each refused at the link, or a ratio that underflows.
  '1e-310', '4.9e-324', '-4.9e-324', '2.3e-308', '2.2e-308', '1e-320', '1e-300/1e10', '1/1e308'];
const today = new Date().toISOString().slice(0, 10).replaceAll('-', '');
/** The default seed: checked clean over 1 000 links (and 2 000 with seed 53) when it was set. */
const FIXED_SEED = 20261127;
const SEED = process.env.FUZZ_SEED === 'date' ? Number(today) : Number(process.env.FUZZ_SEED ?? FIXED_SEED);
const TOTAL = Number(process.env.FUZZ_LINKS ?? 1000);
const LABS = (process.env.FUZZ_LABS ?? Object.keys(KEYS).join(',')).split(',');
/** Of each lab's links, the share opened under the `//` path. */
const DOUBLE_SLASH_SHARE = 0.25;
const LONG_TASK_MS = 200;
console.log(`fuzz: FUZZ_SEED=${SEED} FUZZ_LINKS=${TOTAL} (replay with these)`);

/** mulberry32: a small seeded generator, so a failing link can be reproduced from its seed. */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A value for `key`: an extreme, or its default scaled, cut or padded. */
function value(random, defaultValue) {
  const pick = (xs) => xs[Math.floor(random() * xs.length)];
  const number = Number(defaultValue);
  if (defaultValue !== undefined && random() < 0.4) {
    if (Number.isFinite(number) && defaultValue !== '') return String(number * pick([1e-310, 1e-300, 1e-6, 1e-3, 1e3, 1e6, -1]));
    return pick([defaultValue.slice(0, Math.ceil(defaultValue.length / 2)), `${defaultValue},${defaultValue}`,
      `${defaultValue}*1e9`, defaultValue.replace(/[0-9.]+/g, '0'), defaultValue.replace(/[0-9.]+/g, '1e-9'),
      defaultValue.replace(/[0-9.]+/g, '1e-320')]);
  }
  return pick(EXTREMES);
}

/** The query strings of one lab's links. RR's first links set K = 50 with the histogram on category 49
 * and the repeated surveys in a worker, so the next link (a smaller K, or none) meets that state. */
function queries(random, lab, count) {
  const { defaults, optional } = KEYS[lab];
  const keys = [...Object.keys(defaults), ...optional];
  const out = lab === 'rr' ? ['lab=rr&k=50&cat=49&reps=1000', 'lab=rr&k=3', 'lab=rr&k=50&cat=49&reps=1000', 'lab=rr'] : [];
  while (out.length < count) {
    const chosen = new Set();
    const n = 1 + Math.floor(random() * 3);
    while (chosen.size < n) chosen.add(keys[Math.floor(random() * keys.length)]);
    const pairs = [...chosen].map((k) => `${k}=${encodeURIComponent(value(random, defaults[k]))}`);
    out.push(`lab=${lab}&${pairs.join('&')}`);
  }
  return out;
}

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
/** `promise`, or 'blocked' when the page's thread has not answered within `ms`. */
const orBlocked = (promise, ms = 5000) => Promise.race([promise, sleep(ms).then(() => 'blocked')]);

/** A page that records its longest main-thread task (reset by `navigate`). */
const fuzzPage = timedPage;

/** Two frames and a little idle time: the page has applied the link and painted. */
const settled = (page) => orBlocked(page.evaluate(() => new Promise((ok) => {
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => ok(window.__longest), 60)));
})));

/** Moves to `query` inside the page (Back and Forward go through the same popstate), measuring from here.
 * The event is dispatched from a task of the page's own: work inside the test's `evaluate` is not
 * reported as a long task. */
const navigate = (page, query) => orBlocked(page.evaluate((q) => {
  window.__longest = 0;
  history.replaceState(null, '', `?${q}`);
  setTimeout(() => dispatchEvent(new PopStateEvent('popstate')));
}, query));

/** What is wrong on the page now: NaN among the results, links or an address off the page. */
function inspect(page, base) {
  return orBlocked(page.evaluate((expected) => {
    const wrong = [];
    const copy = document.querySelector('.results')?.cloneNode(true);
    // A field's notice may quote the refused text, NaN included.
    copy?.querySelectorAll('.section-controls').forEach((c) => c.remove());
    if (/NaN/.test(copy?.textContent ?? '')) wrong.push('NaN on the page');
    if (location.origin !== expected.origin || location.pathname !== expected.pathname) wrong.push(`address bar left the page: ${location.href}`);
    for (const a of document.querySelectorAll('a[href]')) {
      const raw = a.getAttribute('href');
      // Written as absolute URLs (references, the weights' data URL) or a fragment: not built from the location.
      if (/^(https?:|mailto:|data:|blob:|#)/i.test(raw)) continue;
      const url = new URL(a.href);
      if (url.origin !== expected.origin || url.pathname !== expected.pathname) wrong.push(`link off the page: ${raw} → ${a.href}`);
    }
    return wrong;
  }, { origin: new URL(base).origin, pathname: new URL(base).pathname }));
}

/** Moves the first slider or number field a little (a control's write goes through the page's links). */
const moveAControl = (page) => orBlocked(page.evaluate(() => {
  const input = document.querySelector('.controls input[type=range], .controls input[type=number], input[type=range]');
  if (!input) return false;
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  setTimeout(() => {
    setter.call(input, input.type === 'range' ? input.max || '1' : '2');
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
  return true;
}));

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const random = generator(SEED);
const perLab = Math.ceil(TOTAL / LABS.length);
const plan = LABS.map((lab) => {
  const all = queries(random, lab, perLab);
  const cut = Math.floor(all.length * (1 - DOUBLE_SLASH_SHARE));
  return { lab, runs: [['', all.slice(0, cut)], ['//', all.slice(cut)]] };
});

for (const { lab, runs } of plan) {
  test(`fuzz ${lab} (FUZZ_SEED=${SEED}): ${runs.reduce((n, r) => n + r[1].length, 0)} links`, { timeout: 15 * 60_000 }, async () => {
    const failures = [];
    for (const [kind, links] of runs) {
      if (links.length === 0) continue;
      const base = kind === '//' ? server.doubleSlashUrl : server.url;
      let page = null;
      const open = async (query) => {
        await page?.close();
        page = await fuzzPage(browser);
        await page.goto(`${base}?${query}`);
        await page.waitForSelector(`[data-testid="${READY[lab]}"]`, { state: 'attached', timeout: 30_000 });
        await settled(page);
      };
      for (const [i, query] of links.entries()) {
        const where = `${kind === '//' ? '(// path) ' : ''}#${i} ?${query}`;
        try {
          if (!page) {
            await open(query);
            // After load: everything from here on counts.
            await page.evaluate(() => { window.__longest = 0; });
            if (await moveAControl(page) === 'blocked') throw new Error('page thread blocked > 5 s after a control moved');
          } else if (await navigate(page, query) === 'blocked') {
            throw new Error('page thread blocked > 5 s');
          }
          let longest = await settled(page);
          if (longest === 'blocked') throw new Error('page thread blocked > 5 s');
          if (longest >= LONG_TASK_MS) {
            // A freeze repeats; one long task on a loaded machine (a collection, the browser's own work)
            // does not: the link once more, from the default, decides.
            await navigate(page, `lab=${lab}`);
            await settled(page);
            await navigate(page, query);
            const again = await settled(page);
            longest = again === 'blocked' ? Infinity : Math.min(longest, again);
          }
          const wrong = await inspect(page, base);
          if (wrong === 'blocked') throw new Error('page thread blocked > 5 s');
          if (longest >= LONG_TASK_MS) wrong.push(`longest main-thread task ${longest} ms (the smaller of two tries)`);
          const problems = page.problems.splice(0);
          if (wrong.length || problems.length) {
            failures.push(`${where}: ${[...wrong, ...problems].join('; ')}`);
            await open(`lab=${lab}`); // a fresh page for the next link
          }
        } catch (e) {
          failures.push(`${where}: ${e.message.split('\n')[0]}`);
          await page?.close().catch(() => {});
          page = null;
        }
      }
      await page?.close();
    }
    assert.deepEqual(failures, [], `FUZZ_SEED=${SEED} FUZZ_LINKS=${TOTAL}`);
  });
}
