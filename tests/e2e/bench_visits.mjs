// Lab to lab in one browser (not a test): `node tests/e2e/bench_visits.mjs` after a build. Each round opens
// a fresh browser context and follows LINKS in it, as someone moving between labs does, from a server
// that sends a real host's cache headers (harness.mjs, `cache`), so that the browser may keep compiled
// modules from page to page. For each link: the time from its navigation to its number on screen
// (the frame after it entered the page) and the page's own read-out, medians over ROUNDS (default 5).
// The first link is a first visit. DIST_A, DIST_B, … name builds to compare (interleaved, round by
// round); by default dist/ alone.
import { launchBrowser, median, newPage, serveDist } from './harness.mjs';

const LINKS = [
  ['?lab=dpsgd', 'dpsgd-pld-ms'],
  ['?lab=attack', 'attack-ms'],
  ['?lab=dpsgd&q=0.01&sigma=1&steps=100000&delta=1e-5', 'dpsgd-pld-ms'],
  ['?lab=compose', 'compose-pld-ms'],
  ['?lab=rr&shuffle=1&n=10000000&eps=1', 'rr-shuffle-ms'],
];
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const named = Object.keys(process.env).filter((k) => /^DIST_[A-Z]$/.test(k)).sort();
const builds = named.length ? named.map((k) => [k.slice(5), process.env[k]]) : [['dist', undefined]];
const servers = await Promise.all(builds.map(async ([name, dir]) => [name, await serveDist(dir, { cache: true })]));
const browser = await launchBrowser();
const shown = (page, id) => page.waitForFunction((t) => {
  const v = parseFloat(document.querySelector(`[data-testid="${t}"]`)?.dataset.value);
  return Number.isFinite(v) && [performance.now(), v];
}, id, { timeout: 120_000, polling: 'raf' }).then((h) => h.jsonValue());

const got = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, server] of servers) {
    const page = await newPage(browser);
    for (const [i, [link, id]] of LINKS.entries()) {
      await page.goto(server.url + link);
      ((got[name] ??= [])[i] ??= []).push(await shown(page, id));
      // Let the link's other jobs end before the next one.
      await page.waitForTimeout(2500);
    }
    await page.context().close();
  }
}
for (const [i, [link, id]] of LINKS.entries()) {
  const cells = servers.map(([name]) => {
    const runs = got[name][i];
    return `${name}: ${median(runs.map((r) => r[0])).toFixed(0).padStart(4)} ms to the number, ${id} ${median(runs.map((r) => r[1])).toFixed(0).padStart(4)}`;
  });
  console.log(`${link.padEnd(52)} ${cells.join(' | ')}`);
}
await browser.close();
for (const [, server] of servers) await server.close();
