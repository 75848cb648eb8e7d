// Percentile bootstrap over a program's experiments: the random source is injected so every answer is reproducible.

/**
 * n draws with replacement from 0..n-1, as how many times each index was drawn: walking the counts in index order
 * gives the resampled sequence in time order without a sort.
 */
export function resampleCounts(n: number, random: () => number): Uint32Array {
  const counts = new Uint32Array(n);
  for (let i = 0; i < n; i++) counts[Math.floor(random() * n)]!++;
  return counts;
}

/** The central `level` of the values (percentile method, 95 % unless said); undefined where none is defined. */
export function findInterval(values: readonly (number | undefined)[], level = 0.95): [number, number] | undefined {
  const sorted = values.filter((value): value is number => value !== undefined && Number.isFinite(value))
    .sort((a, b) => a - b);
  // Most resamples undefined (no GPU time, say): no interval worth the name.
  if (sorted.length < values.length / 2 || sorted.length === 0) return undefined;
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;
  return [at((1 - level) / 2), at((1 + level) / 2)];
}
