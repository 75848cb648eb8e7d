import type { ResultRow } from "../experiments/results-table.js";
import type { Claim } from "./board.js";

// Words that say nothing about which idea it is: "try the lr" and "lr" are the same idea.
const STOP_WORDS = new Set([
  "a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at", "by", "for", "with", "from", "into", "as",
  "than", "then", "is", "are", "be", "it", "its", "this", "that", "these", "those", "we", "i", "my", "our", "try",
  "trying", "tried", "see", "whether", "if",
]);

/** An open claim or a tried idea (a results.tsv row) whose words are close to a new claim's. */
export type NearIdea =
  | { kind: "claim"; claim: Claim; similarity: number }
  | { kind: "tried"; row: Pick<ResultRow, "commit" | "agent" | "status" | "description">; similarity: number };

/** The lowercase words of an idea, numbers kept whole (lr 0.02 is not lr 0.04), stop words left out. */
export function tokenizeIdea(text: string): Set<string> {
  const words = text.toLowerCase().split(/[^a-z0-9.]+/).map((word) => word.replace(/^\.+|\.+$/g, ""));
  return new Set(words.filter((word) => word !== "" && !STOP_WORDS.has(word)));
}

/** Jaccard similarity of two word sets: shared words over all words; 0 when either has none. */
export function measureSimilarity(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared += 1;
  return shared / (a.size + b.size - shared);
}

/** The open claims and tried ideas at least `threshold` similar to `idea`, most similar first, at most `limit`. */
export function findNearIdeas(
  idea: string, open: Claim[], tried: ResultRow[], threshold: number, limit = 3,
): NearIdea[] {
  const words = tokenizeIdea(idea);
  const near: NearIdea[] = [
    ...open.map((claim): NearIdea =>
      ({ kind: "claim", claim, similarity: measureSimilarity(words, tokenizeIdea(claim.idea)) })),
    ...newestPerIdea(tried)
      .map((row): NearIdea =>
        ({ kind: "tried", row, similarity: measureSimilarity(words, tokenizeIdea(row.description)) })),
  ];
  return near.filter((entry) => entry.similarity >= threshold).sort((a, b) => b.similarity - a.similarity)
    .slice(0, limit);
}

// An idea tried three times is named once, by its latest try; newest first, so of two equally
// near ideas the latest is named.
function newestPerIdea(rows: ResultRow[]): ResultRow[] {
  const seen = new Set<string>();
  return [...rows].reverse().filter((row) => {
    if (seen.has(row.description)) return false;
    seen.add(row.description);
    return true;
  });
}
