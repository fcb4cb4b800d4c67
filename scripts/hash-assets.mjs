// Trunk post-build hook (Trunk.toml): gives each lab module and the worker module a content-hashed name
// (trunk names worker-type outputs after the binary alone), and writes the names into index.html's
// `dp-files` manifest, which the loader and the worker pool read, with each lab's worker preload rule
// from web/labs.json (written by the core's Lab list: `LABS_RECORD=1 cargo test`). A new build therefore never meets a
// cached older module, and the files can be cached forever. Builds without these files (single.html)
// pass through untouched.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR ?? 'dist';
const html = join(dir, 'index.html');
const placeholder = '<script id="dp-files" type="application/json">{}</script>';
const page = (() => {
  try {
    return readFileSync(html, 'utf8');
  } catch {
    return '';
  }
})();
if (!page.includes(placeholder)) process.exit(0);

const hashed = (bin) => {
  const [js, wasm] = [`${bin}.js`, `${bin}_bg.wasm`];
  const hash = createHash('sha256')
    .update(readFileSync(join(dir, js)))
    .update(readFileSync(join(dir, wasm)))
    .digest('hex')
    .slice(0, 16);
  const names = [`${bin}-${hash}.js`, `${bin}-${hash}_bg.wasm`];
  renameSync(join(dir, js), join(dir, names[0]));
  renameSync(join(dir, wasm), join(dir, names[1]));
  return names;
};
const { preload, worker: workerOf } = JSON.parse(readFileSync(new URL('../web/labs.json', import.meta.url), 'utf8'));
// `worker`: the module of every job (the single-file build's); `workers`: one per group of labs, and
// `workerOf` says which a lab uses.
const files = { labs: {}, workers: {}, worker: hashed('dp-playground-worker'), workerOf, preload };
for (const module of new Set(Object.values(workerOf))) files.workers[module] = hashed(`dp-playground-worker-${module}`);
for (const f of readdirSync(dir).sort()) {
  const m = /^lab-([a-z]+)\.js$/.exec(f);
  if (m) files.labs[m[1]] = hashed(`lab-${m[1]}`);
}
const manifest = JSON.stringify(files).replace(/</g, '\\u003c');
writeFileSync(html, page.replace(placeholder, () => placeholder.replace('{}', manifest)));
console.log(`hash-assets: ${Object.keys(files.labs).length} lab modules and ${Object.keys(files.workers).length + 1} worker modules renamed`);
