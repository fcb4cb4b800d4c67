// Shared browser-test harness: a static server that serves dist/ under a sub-path (no rewrite rules,
// as any static host would), and headless Debian Chromium driven by playwright-core.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { chromium } from 'playwright-core';

// DIST_DIR serves another build (e.g. an older checkout's dist/, to compare).
const DIST = process.env.DIST_DIR ?? resolve(new URL('../../dist', import.meta.url).pathname);
/** The sub-path the site is served from, to prove relative links work anywhere. */
export const SUB_PATH = '/courses/privacy/playground/';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json',
};

/** The same site under a path that starts with `//` (`http://host//courses/…`), where a link built as
 * pathname + query would be protocol-relative (issue 53). */
export const DOUBLE_SLASH_PATH = `/${SUB_PATH}`;

/** Starts a static server for dist/ (or `dir`) under SUB_PATH, and under DOUBLE_SLASH_PATH, on a free
 * loopback port; resolves to { url, doubleSlashUrl, close }. With `cache`, it sends the headers a real
 * host would: content-hashed files cached for good, the rest revalidated (the browser then keeps compiled
 * modules between pages). */
export async function serveDist(dir = DIST, { cache = false } = {}) {
  const server = createServer(async (req, res) => {
    // The raw path: `new URL('//courses/…', base)` would read `courses` as a host.
    let path;
    try { path = decodeURIComponent(req.url.split('?')[0]); } catch { res.writeHead(400).end(); return; }
    const prefix = [DOUBLE_SLASH_PATH, SUB_PATH].find((p) => path.startsWith(p));
    if (!prefix) { res.writeHead(404).end('not found'); return; }
    let file = normalize(join(dir, path.slice(prefix.length)));
    if (!file.startsWith(dir)) { res.writeHead(403).end(); return; }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      const headers = { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' };
      if (cache) headers['cache-control'] = /-[0-9a-f]{16}(_bg\.wasm|\.js|\.css)$/.test(file) ? 'max-age=31536000, immutable' : 'no-cache';
      res.writeHead(200, headers).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}${SUB_PATH}`,
    doubleSlashUrl: `http://127.0.0.1:${port}${DOUBLE_SLASH_PATH}`,
    close: () => new Promise((ok) => server.close(ok)),
  };
}

/** Launches headless Debian Chromium with the flags this sandbox needs. */
export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      ...(process.env.CHROMIUM_ARGS ? process.env.CHROMIUM_ARGS.split(' ') : [])],
  });
}

/** A new page that records console errors and uncaught exceptions into `page.problems`. */
export async function newPage(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  page.problems = [];
  page.on('console', (msg) => { if (msg.type() === 'error') page.problems.push(`console: ${msg.text()}`); });
  page.on('pageerror', (err) => page.problems.push(`pageerror: ${err.message}`));
  page.on('response', (res) => { if (res.status() >= 400) page.problems.push(`HTTP ${res.status()}: ${res.url()}`); });
  return page;
}

/** Opens `query` under the served site and waits until the app has mounted and drawn its charts. */
export async function openLab(page, base, query, readyTestId = 'rr-p-truth') {
  await page.goto(`${base}${query}`);
  await page.waitForSelector(`[data-testid="${readyTestId}"]`, { state: 'attached', timeout: 30_000 });
  // Content below the fold is built a frame or two later (web/src/widgets/after_paint.rs).
  await page.waitForFunction(() => !document.querySelector('[data-after-paint="pending"]'));
  return page;
}

/** The median of `xs` (the upper one of an even count), for the benches' repeated loads. */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The exact number a `data-testid` element carries in `data-value`. */
export async function valueOf(page, testId) {
  const raw = await page.getAttribute(`[data-testid="${testId}"]`, 'data-value');
  return Number(raw);
}

/** Waits until a `data-testid` element carries a finite number in `data-value`, and resolves to it. */
export async function finiteValueOf(page, testId, timeout = 60_000) {
  await page.waitForFunction((t) => Number.isFinite(parseFloat(document.querySelector(`[data-testid="${t}"]`)?.dataset.value)), testId, { timeout });
  return valueOf(page, testId);
}

/** How many distinct colours a canvas holds (1 for a blank canvas), sampled on a grid. */
export function canvasColours(page, testId) {
  return page.evaluate((id) => {
    const canvas = document.querySelector(`[data-testid="${id}"]`);
    if (!canvas || canvas.width === 0) return 0;
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    const seen = new Set();
    for (let i = 0; i < data.length; i += 4 * 97) seen.add(`${data[i]},${data[i + 1]},${data[i + 2]},${data[i + 3]}`);
    return seen.size;
  }, testId);
}

/** Waits until a canvas has been drawn at least `times` times in total. Scrolls it into view first:
 * the mechanisms lab draws a chart only when it is on screen. */
export async function waitDrawn(page, testId, times = 1) {
  await page.locator(`[data-testid="${testId}"]`).scrollIntoViewIfNeeded();
  await page.waitForFunction(([id, n]) => {
    const c = document.querySelector(`[data-testid="${id}"]`);
    return c && Number(c.getAttribute('data-drawn') ?? 0) >= n;
  }, [testId, times], { timeout: 30_000 });
}

/** A new page that records its longest main-thread task since navigation in `window.__longest`
 * (PerformanceObserver longtask). */
export async function timedPage(browser) {
  const page = await newPage(browser);
  await page.addInitScript(() => {
    window.__longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  return page;
}

/** Opens `link` in a new page and waits for `ready` and one more second; resolves to the page and the
 * longest main-thread task since navigation (PerformanceObserver longtask), for the tests that keep the
 * page's thread free (freeze.test.mjs, fuzz.test.mjs). */
export async function openTimed(browser, base, link, ready) {
  const page = await timedPage(browser);
  await page.goto(`${base}${link}`);
  await page.waitForSelector(`[data-testid="${ready}"]`, { state: 'attached', timeout: 20_000 });
  await page.waitForTimeout(1000);
  return { page, longest: await page.evaluate(() => window.__longest) };
}
