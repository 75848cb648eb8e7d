// The metric a repo prints, read from the source that prints it: `print(f"val_bpb: {x}")`,
// `console.log(`score: ${s}`)`, `echo "score: $s"`. A guess: written with a comment, for a person to check.

export type Goal = "minimize" | "maximize";

export interface MetricGuess {
  name: string;
  pattern: string;
  /** Absent when the name says nothing of its direction: the person writes it. */
  goal?: Goal;
  /** The file that prints it. */
  file: string;
  /** The other names printed the same way, for the comment. */
  others: string[];
  /** peak_vram_mb or the like, when printed. */
  memory?: string;
}

// An output call whose text starts with `name:` or `name=`, e.g. print("val_loss:", x) or printf "score=%s".
const OUTPUT_CALL = [
  String.raw`\bprint\s*\(\s*f?`,
  String.raw`console\.(?:log|info)\s*\(\s*`,
  String.raw`process\.stdout\.write\s*\(\s*`,
  String.raw`\becho\s+(?:-[a-zA-Z]+\s+)*`,
  String.raw`\bprintf\s+`,
].join("|");
const PRINTED = new RegExp(`(?:${OUTPUT_CALL})["'\`]?([A-Za-z_][A-Za-z0-9_]*)([:=])`, "g");
const MEMORY = /^(peak_)?(vram|memory|mem)(_mb)?$|^peak_vram_mb$/;
const LOWER = /loss|bpb|bpc|err|ppl|perplexity|latency|time|seconds|_ms$|_s$|bytes|size|cost|mse|mae|rmse|regret/;
const HIGHER = /acc|score|f1|auc|ops|throughput|per_s|reward|bleu|rouge|hz|speed|precision|recall|pass|win/;
const BOOKKEEPING = /seed|step|epoch|iter|num_|count|params|lr$|batch|total_|^n_/;

/** The most metric-like name `files` print (in order); undefined when none prints `name: value`. */
export function findMetric(files: string[], texts: Record<string, string>): MetricGuess | undefined {
  const printed: { name: string; separator: string; file: string }[] = [];
  for (const file of files) {
    for (const match of (texts[file] ?? "").matchAll(PRINTED)) {
      if (printed.some((seen) => seen.name === match[1])) continue;
      printed.push({ name: match[1]!, separator: match[2]!, file });
    }
  }
  const memory = printed.find((entry) => MEMORY.test(entry.name));
  const ranked = printed
    .filter((entry) => entry !== memory && rankName(entry.name) >= 0)
    .sort((a, b) => rankName(b.name) - rankName(a.name));
  const best = ranked[0];
  if (!best) return undefined;
  const goal = guessGoal(best.name);
  return {
    name: best.name,
    pattern: patternFor(best.name, best.separator),
    ...(goal ? { goal } : {}),
    file: best.file,
    others: printed.filter((entry) => entry !== best && entry !== memory).map((entry) => entry.name),
    ...(memory ? { memory: patternFor(memory.name, memory.separator) } : {}),
  };
}

/** The direction a metric's name implies: losses and times go down, scores and rates up. */
export function guessGoal(name: string): Goal | undefined {
  const lower = name.toLowerCase();
  if (/ops|per_s|throughput/.test(lower)) return "maximize";
  if (LOWER.test(lower)) return "minimize";
  return HIGHER.test(lower) ? "maximize" : undefined;
}

// Held-out names first; bookkeeping (seed, steps, params) is never the metric.
function rankName(name: string): number {
  const lower = name.toLowerCase();
  if (BOOKKEEPING.test(lower)) return -1;
  return (/^(val|valid|validation|test|eval|dev)[_-]?/.test(lower) ? 2 : 0) + (guessGoal(lower) ? 1 : 0);
}

function patternFor(name: string, separator: string): string {
  return `^${name}${separator === ":" ? ":" : "="}\\s*([-+0-9.eE]+)`;
}
