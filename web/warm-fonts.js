// Font warm-up, inlined into the page's head (index.html, single.html) by trunk.
//
// Chromium pays for each (family, size, weight, style) a page uses once per process: a font lookup and,
// on Linux, synchronous IPCs to the browser process (1–8 ms each on a 2-core machine), and a fallback
// lookup for each character its first font lacks. Paid inside the lab's first layout and its first chart
// draws, they made tasks of 60–130 ms while the lab's jobs ran. Here they are paid in small tasks of
// their own from the page's start, while the lab's module downloads and compiles and between its tasks.
//
// FONTS lists what web/style.css uses, and CANVAS the charts' font (web/src/charts/mod.rs, `font`);
// tests/e2e/fonts.test.mjs checks that every font a lab's text uses is in the list. TEXT holds every
// non-ASCII character the labs print (from the Rust sources), and MARKED every letter with a combining
// mark.
{
  const SANS = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
  const MONO = 'ui-monospace, SFMono-Regular, Menlo, monospace';
  const FONTS = [
    ...['16px', '14.4px', '12.8px', '12px'].map((size) => `400 ${size} ${SANS}`),
    ...['24px', '20px', '18.72px', '17.6px', '16px', '14.4px', '12.8px'].map((size) => `600 ${size} ${SANS}`),
    `italic 400 20px ${SANS}`,
    ...['16px', '12.8px'].map((size) => `400 ${size} ${MONO}`),
  ];
  const CANVAS = '12px sans-serif';
  const TEXT =
    'Aa1 §±²³µ·¹½×äéëö÷üı̂̃̄ΓΔΣΦαβγδεηθκλμνξπρστφᵀᵐḢᾱ–—‖…′⁰⁴⁵⁶⁷⁸⁹⁻₀₁₂₊ₓℓ←→↓↗↦⇒⇔∂∇∈−∓∘√∝∞∪∫≈≠≤≥≪⌈⌉⌊⌋⟨⟩𝟙ȫ\u202f\u00a0'; // the last two: narrow and plain no-break spaces
  const MARKED = 'R̂ r̄ π̂ λ̂ q̃ p̃ δ̂ β̄ Φ̄';
  const ALL = `${TEXT} ${MARKED}`;
  // Laid out (so its fonts are looked up) but never seen, heard or hit: outside <body>, one pixel,
  // hidden, and its layout contained.
  const box = document.createElement('div');
  box.id = 'dp-font-warm';
  box.setAttribute('aria-hidden', 'true');
  box.dataset.canvasFont = CANVAS;
  box.style.cssText =
    'position:absolute;top:0;left:0;width:1px;height:1px;overflow:hidden;visibility:hidden;contain:strict;pointer-events:none';
  document.documentElement.append(box);
  // The work is cut into units of a few characters and done in slices of at most SLICE ms, each a task
  // of its own. Done all at once it held the page's thread 80–240 ms after the lab's module had
  // arrived, delaying its first number; in slices, the lab's tasks run between two of them. (The first
  // characters of the first font alone cost up to 100 ms in a slow hour: a family's first lookups.)
  const SLICE = 8;
  // Letters with their combining marks stay together (a cluster is looked up as one).
  const all = ALL.match(/\P{M}\p{M}*/gu);
  const pieces = (chars, size) => Array.from({ length: Math.ceil(chars.length / size) }, (_, i) => chars.slice(i * size, (i + 1) * size));
  // Every character in every font: the fallback for a character a font lacks is looked up per font
  // (a sample of ASCII and Greek alone left 35 ms of those lookups in the tangent lab's first result).
  // Each unit is a block of its own, so laying it out leaves the earlier ones alone (one growing span
  // was laid out again whole at every unit: 480 forced layouts, 370 ms of the page's thread while the
  // lab's first jobs ran).
  const inFont = (font) => pieces(all, 4).map((piece) => () => {
    const line = document.createElement('div');
    line.style.font = font;
    line.textContent = piece.join('');
    box.append(line);
    line.getBoundingClientRect(); // laid out now, in this unit
  });
  const canvas = [];
  const context = document.createElement('canvas').getContext('2d');
  if (context) {
    context.font = CANVAS;
    // Canvas text resolves its fonts on its own path: the same characters once.
    canvas.push(...pieces(all, 4).map((piece) => () => context.measureText(piece.join(''))));
    // The system's fallback font for a character is asked once per character, in any font, but only
    // for the first of a run of characters the font lacks: in TEXT some are never asked, and were
    // later, in a chart's label ("D(log∘A)": 0.4–13 ms). Measured apart, each is asked once.
    canvas.push(...pieces([...TEXT], 4).map((piece) => () => context.measureText(piece.join(' '))));
    canvas.push(() => context.measureText(MARKED));
  }
  // The body text's fonts first, then the charts' (they draw soon after the lab mounts), then the rest.
  const units = [
    ...FONTS.slice(0, 4).flatMap(inFont),
    ...canvas,
    ...[...FONTS.slice(4), CANVAS].flatMap(inFont),
  ];
  const later = globalThis.scheduler?.postTask ? (slice) => scheduler.postTask(slice) : (slice) => setTimeout(slice);
  const slice = () => {
    const start = performance.now();
    while (units.length && performance.now() - start < SLICE) units.shift()();
    if (units.length) later(slice);
    else box.dataset.done = 'true';
  };
  later(slice);
}
