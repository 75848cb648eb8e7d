/** Edit distance with adjacent transpositions counted as one edit, so "nmae" is one step from "name". */
export function measureDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from(
    { length: rows },
    (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      const swapped = i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1];
      if (swapped) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known word closest to `word`, when it is close enough to be a plausible typo; ties go to
 * the earlier candidate.
 */
export function findClosest(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    if (candidate === word) continue;
    const distance = measureDistance(lower, candidate.toLowerCase());
    // A third of the length: "rols" → "roles" passes, "foo" → "gpu" does not.
    const allowed = Math.max(1, Math.floor(Math.max(word.length, candidate.length) / 3));
    if (distance <= allowed && (!best || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}

/** `did you mean "x"?` when a close match exists, otherwise the caller's fallback advice. */
export function suggestFix(word: string, candidates: readonly string[], fallback: string): string {
  const closest = findClosest(word, candidates);
  return closest === undefined ? fallback : `did you mean "${closest}"?`;
}

/** "a, b or c" */
export function joinOr(words: readonly string[]): string {
  return words.length <= 1 ? words.join("") : `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`;
}
