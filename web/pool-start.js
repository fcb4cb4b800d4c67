// The worker pool's start (inlined into index.html and single.html by trunk; the pool itself is
// web/src/platform/pool.rs, which calls `dpPlaygroundPool.adopt()` on its first job and `spawn()` for
// more workers). Every worker starts from one Blob URL holding the bootstrap below (and, in the
// single-file page, the glue), so it also runs in cross-origin iframes and from file://.
//
// Nothing here waits for the page's thread, which is busy while the lab's own module starts: the
// first worker fetches and compiles the module itself (WebAssembly.compileStreaming, in the worker)
// and sends it to the page and, through their own ports, to the workers started while it compiled; so
// the loader can start the first workers (`dpPlaygroundPool.start`) as soon as the page's own module
// is compiled, for labs whose first numbers come from them, and they are ready by the first job.
// Later workers are handed the module.
(() => {
  // Messages a worker takes: { glue } (the glue's address, fetched and run), then the module as one
  // of { module } (compiled), { wasm } or { wasmBase64 } (compile it, post it back to the page and to
  // peers) or { port, wasm | wasmBase64 } (a peer's port it arrives on, or compile it if it cannot);
  // { peer } (a port to send the module to); and
  // jobs (postcard bytes) or gang members' jobs ({ gang, ports }: the job and its channels, one per
  // member), queued until the module is instantiated.
  const BOOTSTRAP = `
let run = null;
let gang = null;
let glue = null;
let module = null;
let failure = null;
const queued = [];
const peers = [];
const ok = (r) => (r.ok ? r : Promise.reject(new Error(r.url + ': HTTP ' + r.status)));
const start = (m) => {
  if (run) return;
  module = m;
  wasm_bindgen.initSync({ module: m });
  run = (job) => wasm_bindgen.run(new Uint8Array(job));
  gang = ({ gang, ports }) => wasm_bindgen.run_gang(gang, ports);
  for (const peer of peers.splice(0)) peer.postMessage(m);
  for (const job of queued.splice(0)) (job.gang ? gang(job) : run(job));
};
const fail = (e) => {
  failure = String(e);
  for (const peer of peers.splice(0)) peer.postMessage(failure);
  self.postMessage({ failed: failure });
  // Thrown from a task, so that the page sees the worker's error event and fails its job.
  setTimeout(() => { throw new Error('the worker module could not be loaded: ' + failure); });
};
const compile = ({ wasm, wasmBase64 }) => {
  if (wasmBase64) return WebAssembly.compile(Uint8Array.from(atob(wasmBase64), (c) => c.charCodeAt(0)));
  const fetched = () => fetch(wasm).then(ok);
  // A server that sends .wasm with another type refuses streaming: then compiled from the bytes.
  return WebAssembly.compileStreaming(fetched())
    .catch(() => fetched().then((r) => r.arrayBuffer()).then((b) => WebAssembly.compile(b)));
};
// The glue is fetched beside the module and run from a Blob (importScripts of its address would
// block this thread for the whole download).
const glued = (address) => fetch(address).then(ok).then((r) => r.blob())
  .then((b) => importScripts(URL.createObjectURL(new Blob([b], { type: 'text/javascript' }))));
self.onmessage = ({ data }) => {
  if (data instanceof Uint8Array || data instanceof ArrayBuffer) {
    if (run) run(data);
    else queued.push(data);
    return;
  }
  if (data.gang) {
    if (gang) gang(data);
    else queued.push(data);
    return;
  }
  if (data.peer) {
    if (module || failure) data.peer.postMessage(module ?? failure);
    else peers.push(data.peer);
    return;
  }
  if (data.glue) glue ??= glued(data.glue);
  let got;
  if (data.module) got = Promise.resolve(data.module);
  else if (data.port) {
    got = new Promise((resolve, reject) => {
      data.port.onmessage = (e) => (e.data instanceof WebAssembly.Module ? resolve(e.data) : reject(e.data));
      // A page of opaque origin (file://) cannot pass a module between workers: compiled here.
      data.port.onmessageerror = () => compile(data).then(resolve, reject);
    });
  } else if (data.wasm || data.wasmBase64) {
    got = compile(data).then((m) => {
      self.postMessage(m);
      return m;
    });
  }
  if (got) Promise.all([glue, got]).then(([, m]) => start(m)).catch(fail);
};
`;
  let state = null;
  const begin = () => {
    // The single-file page (scripts/single-file.mjs) carries the worker inline: its glue goes into
    // the Blob, its module in base64.
    const inline = typeof globalThis.dpPlaygroundWorker === 'function' ? globalThis.dpPlaygroundWorker() : null;
    // The worker module of this page's lab (the manifest's `workerOf`).
    const all = globalThis.dpPlaygroundFiles;
    const files = all?.workers?.[all?.workerOf?.[globalThis.dpPlaygroundLab]];
    if (!inline && !files) throw new Error('this page lists no worker module');
    const [glue, wasm] = inline ? [] : files.map((name) => new URL(name, document.baseURI).href);
    const script = (...parts) => URL.createObjectURL(new Blob(parts, { type: 'text/javascript' }));
    return {
      url: script(inline?.js ?? '', BOOTSTRAP),
      // The first worker's script starts loading the module as it runs: a message posted to a new
      // worker waits for the page's thread, which is busy starting the lab (40 ms in traces).
      compilerUrl: inline ? null : script(BOOTSTRAP, `self.onmessage({ data: ${JSON.stringify({ glue, wasm })} });`),
      glue,
      source: inline ? { wasmBase64: inline.wasmBase64 } : { wasm },
      module: null,
      // The worker compiling the module, and those waiting for it.
      compiler: null,
      waiting: [],
      early: [],
    };
  };
  // `worker` waits for the compiler's module, through a port of their own.
  const wait = (s, worker) => {
    const { port1, port2 } = new MessageChannel();
    s.compiler.postMessage({ peer: port1 }, [port1]);
    worker.postMessage({ port: port2, ...s.source }, [port2]);
    s.waiting.push(worker);
  };
  // The compiler is gone before its module came (a cancelled job stopped it, or it failed): a waiting
  // worker compiles instead, and the others wait for that one.
  const promote = (s) => {
    s.compiler = s.waiting.shift() ?? null;
    if (!s.compiler) return;
    s.compiler.postMessage(s.source);
    for (const worker of s.waiting.splice(0)) wait(s, worker);
  };
  const spawn = () => {
    const s = state;
    const compiler = !s.module && !s.compiler;
    const starts = compiler && s.compilerUrl;
    const worker = new Worker(starts ? s.compilerUrl : s.url);
    // Registered before the pool's own handler, which only ever sees updates.
    worker.addEventListener('message', (e) => {
      if (e.data instanceof WebAssembly.Module) {
        s.module ??= e.data;
        s.compiler = null;
        s.waiting = [];
        e.stopImmediatePropagation();
      } else if (e.data?.failed) {
        // Its peers failed with it; the next worker compiles afresh.
        if (s.compiler === worker) [s.compiler, s.waiting] = [null, []];
        e.stopImmediatePropagation();
      }
    });
    const stop = worker.terminate.bind(worker);
    worker.terminate = () => {
      stop();
      s.waiting = s.waiting.filter((w) => w !== worker);
      if (s.compiler === worker) promote(s);
    };
    if (s.glue && !starts) worker.postMessage({ glue: s.glue });
    if (s.module) worker.postMessage({ module: s.module });
    else if (!compiler) wait(s, worker);
    else {
      s.compiler = worker;
      if (!starts) worker.postMessage(s.source);
    }
    return worker;
  };
  globalThis.dpPlaygroundPool = {
    // The loader's: starts `count` workers for the pool to adopt.
    start(count) {
      state ??= begin();
      while (state.early.length < count) state.early.push(spawn());
    },
    // The pool's, once: the workers started early and how to start more.
    adopt() {
      state ??= begin();
      return { early: state.early.splice(0), spawn };
    },
  };
})();
