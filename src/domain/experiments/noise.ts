/** Mean and sample standard deviation of repeated runs. */
export function summarize(samples: number[]): { mean: number; sd: number; n: number } {
  const n = samples.length;
  const mean = samples.reduce((sum, value) => sum + value, 0) / Math.max(1, n);
  // Identical samples (a deterministic run) spread by exactly 0: a rounded mean would leave a σ of 1e-16, and a gain
  // "7466151060099362σ" over it.
  const same = samples.every((value) => value === samples[0]);
  const variance = n > 1 && !same ? samples.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1) : 0;
  return { mean, sd: Math.sqrt(variance), n };
}

/**
 * σ pooled over every agent's baseline repeats: Σ(nᵢ−1)sᵢ² / Σ(nᵢ−1). All baselines run the same base
 * commit, so their spreads estimate one noise; pooling gives a steadier σ than any agent alone.
 * Undefined until some agent has at least two baseline runs.
 */
export function pooledSigma(groups: number[][]): number | undefined {
  let sumSquares = 0;
  let degrees = 0;
  for (const samples of groups) {
    if (samples.length < 2) continue;
    const { sd, n } = summarize(samples);
    sumSquares += (n - 1) * sd * sd;
    degrees += n - 1;
  }
  return degrees === 0 ? undefined : Math.sqrt(sumSquares / degrees);
}
