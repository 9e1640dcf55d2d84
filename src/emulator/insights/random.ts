/**
 * Deterministic pseudo-randomness: synthetic history and stream statistics must come out the
 * same for the same API key / stream on every run, so nothing here touches Math.random.
 */

/** FNV-1a, 32 bits. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small seeded generator of numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A UUID-shaped (version 4 layout) identifier fixed by `text`. */
export function stableUuid(text: string): string {
  const hex = [0, 1, 2, 3].map((i) => hash32(`${text}#${i}`).toString(16).padStart(8, '0')).join('');
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Picks from `[value, weight]` pairs with `r` in [0, 1). */
export function weighted<T>(choices: ReadonlyArray<readonly [T, number]>, r: number): T {
  const total = choices.reduce((sum, [, w]) => sum + w, 0);
  let point = r * total;
  for (const [value, w] of choices) {
    if (point < w) return value;
    point -= w;
  }
  const last = choices[choices.length - 1];
  if (!last) throw new Error('weighted() needs at least one choice');
  return last[0];
}

/** An integer in [min, max] from `r` in [0, 1). */
export const between = (r: number, min: number, max: number): number => min + Math.floor(r * (max - min + 1));
