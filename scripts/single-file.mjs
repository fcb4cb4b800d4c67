// Builds dist-single/dp-playground.html from dist/: one HTML file with the stylesheet, the JavaScript
// glue and the WebAssembly (base64) inlined, for instructors who cannot host anything: it opens straight
// from disk (file://), where browsers refuse to fetch or import neighbouring files.
// Usage: node scripts/single-file.mjs   (after ./scripts/build.sh)
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);
const dist = join(root, 'dist');
const out = join(root, 'dist-single');
const files = readdirSync(dist);
const find = (re) => {
  const name = files.find((f) => re.test(f));
  if (!name) throw new Error(`dist/ has no file matching ${re}: run ./scripts/build.sh first`);
  return name;
};
const css = readFileSync(join(dist, find(/^style-.*\.css$/)), 'utf8');
const js = readFileSync(join(dist, find(/^dp-playground-web-.*\.js$/)), 'utf8');
const wasm = readFileSync(join(dist, find(/^dp-playground-web-.*_bg\.wasm$/))).toString('base64');
// The worker pool's module (web/src/pool.rs): its glue as a string and its bytes in base64, decoded only
// when a lab first needs a worker; the pool starts workers from a Blob, which file:// pages may do.
const workerJs = readFileSync(join(dist, 'dp-playground-worker.js'), 'utf8');
const workerWasm = readFileSync(join(dist, 'dp-playground-worker_bg.wasm')).toString('base64');
const workerScript = `<script>
globalThis.dpPlaygroundWorker = () => ({
  js: ${JSON.stringify(workerJs).replace(/<\//g, '<\\/')},
  wasm: Uint8Array.from(atob("${workerWasm}"), (c) => c.charCodeAt(0)),
});
</script>`;

let html = readFileSync(join(dist, 'index.html'), 'utf8');
// Drop the stylesheet link, the loader and the preloads trunk wrote; inline their contents instead.
html = html
  .replace(/<link rel="stylesheet"[^>]*>/, () => `<style>\n${css}\n</style>`)
  .replace(/<script type="module">[\s\S]*?<\/script>/, '')
  .replace(/<link rel="modulepreload"[^>]*>/g, '')
  .replace(/<link rel="preload"[^>]*>/g, '')
  .replace(/<!-- Labs whose numbers come from the worker pool[\s\S]*?-->\s*/, '')
  .replace(/<script id="worker-preload">[\s\S]*?<\/script>/, '');
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
