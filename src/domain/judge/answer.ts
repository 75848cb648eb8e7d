// A judge's answer read strictly: every dimension scored 0..1 and a reason, or a judge-error saying what is wrong.
import { listJsonObjects } from "./json-scan.js";

export type JudgeAnswer =
  | { kind: "scored"; score: number; scores: Record<string, number>; reason: string }
  | { kind: "error"; reason: string };

/** The weighted sum of the judge's scores is the metric; anything but a whole, in-range answer is an error. */
export function parseJudgeAnswer(output: string, weights: Readonly<Record<string, number>>): JudgeAnswer {
  const expected = Object.keys(weights);
  const named = `expected ${expected.join(", ")}`;
  const fail = (what: string): JudgeAnswer => ({ kind: "error", reason: `judge-error: ${what}` });
  const answer = findAnswer(output);
  if (!answer) return fail(`no JSON answer with "scores" and "reason" in the judge's output (${named})`);
  const scores = answer.scores;
  if (scores === null || typeof scores !== "object" || Array.isArray(scores)) {
    return fail(`"scores" is not a map of dimension to score (${named})`);
  }
  const entries = Object.entries(scores as Record<string, unknown>);
  if (entries.length === 0) return fail(`the answer scores no dimension (${named})`);
  const unknown = entries.find(([name]) => !Object.hasOwn(weights, name));
  if (unknown) return fail(`the answer scores unknown dimension "${unknown[0]}" (${named})`);
  const missing = expected.filter((name) => !Object.hasOwn(scores, name));
  if (missing.length > 0) return fail(`the answer does not score ${missing.join(", ")}`);
  const inRange = (value: unknown) => typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= 1;
  const outside = entries.find(([, value]) => !inRange(value));
  if (outside) return fail(`${outside[0]} scored ${JSON.stringify(outside[1])}, not a number from 0 to 1`);
  const reason = typeof answer.reason === "string" ? answer.reason.trim() : "";
  if (reason === "") return fail(`the answer gives no "reason"`);
  const numbers = scores as Record<string, number>;
  const score = expected.reduce((sum, name) => sum + weights[name]! * numbers[name]!, 0);
  return { kind: "scored", score, scores: numbers, reason };
}

/** The last JSON object in the output that has a "scores" key: a CLI may print other text around it. */
function findAnswer(output: string): Record<string, unknown> | undefined {
  return listJsonObjects(output).filter((value) => "scores" in value).at(-1);
}
