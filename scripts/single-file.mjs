// Builds dist-single/dp-playground.html from dist/: one HTML file with the stylesheet, the JavaScript
// glue and the WebAssembly (base64) inlined, for instructors who cannot host anything: it opens straight
// from disk (file://), where browsers refuse to fetch or import neighbouring files.
// It starts from the all-labs build of single.html (dist-all/; lab to lab without a page load) and takes
// the worker module from the main build (dist/).
// Usage: node scripts/single-file.mjs   (after ./scripts/build.sh)
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);
const dist = join(root, 'dist-all');
const out = join(root, 'dist-single');
const find = (dir, re) => {
  const name = readdirSync(dir).find((f) => re.test(f));
  if (!name) throw new Error(`${dir} has no file matching ${re}: run ./scripts/build.sh first`);
  return join(dir, name);
};
const css = readFileSync(find(dist, /^style-.*\.css$/), 'utf8');
const js = readFileSync(find(dist, /^dp-playground-web-.*\.js$/), 'utf8');
const wasm = readFileSync(find(dist, /^dp-playground-web-.*_bg\.wasm$/)).toString('base64');
// The worker pool's module (web/pool-start.js, web/src/platform/pool.rs): its glue as a string and its
// bytes in base64, compiled on the first job; the pool starts workers from a Blob, which file:// pages
// may do.
const main = join(root, 'dist');
// The module of every job, named in the main build's manifest (the others hold one group of labs').
const manifest = JSON.parse(/<script id="dp-files" type="application\/json">(.*?)<\/script>/s.exec(readFileSync(join(main, 'index.html'), 'utf8'))[1]);
const workerJs = readFileSync(join(main, manifest.worker[0]), 'utf8');
const workerWasm = readFileSync(join(main, manifest.worker[1])).toString('base64');
const workerScript = `<script>
globalThis.dpPlaygroundWorker = () => ({
  js: ${JSON.stringify(workerJs).replace(/<\//g, '<\\/')},
  wasmBase64: "${workerWasm}",
});
</script>`;

let html = readFileSync(join(dist, 'single.html'), 'utf8');
// Drop the stylesheet link, the loader and the preloads trunk wrote; inline their contents instead.
html = html
  .replace(/<link rel="stylesheet"[^>]*>/, () => `<style>\n${css}\n</style>`)
  .replace(/<script type="module">[\s\S]*?<\/script>/, '')
  .replace(/<link rel="modulepreload"[^>]*>/g, '')
  .replace(/<link rel="preload"[^>]*>/g, '')
  .replace(/<!-- Every lab in one module[\s\S]*?-->\s*/, '');
// The glue is an ES module; inline, its exports are simply unused. It starts the app with the bytes.
const loader = `<script type="module">
${js.replace(/^export \{[^}]*\};?\s*$/m, '')}
const bytes = Uint8Array.from(atob("${wasm}"), (c) => c.charCodeAt(0));
await __wbg_init({ module_or_path: bytes });
</script>`;
html = html.replace('</head>', () => `${workerScript}\n${loader}\n</head>`);
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'dp-playground.html'), html);
console.log(`wrote dist-single/dp-playground.html (${(html.length / 1024).toFixed(0)} KiB)`);
