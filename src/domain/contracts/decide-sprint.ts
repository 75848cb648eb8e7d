import type { ResultRow } from "../experiments/results-table.js";
import type { Assertion, Contract } from "./contract-file.js";
import { readAssertions } from "./contract-file.js";
import { parseFrontMatter, type FileProblem } from "../front-matter.js";

/** One contract assertion as the evaluator judged it. */
export interface ReviewItem {
  assertion: string;
  passed: boolean;
  /** What the evaluator wrote after the assertion. */
  evidence: string;
  line: number;
}

export type ParsedReview = { ok: true; items: ReviewItem[]; commit?: string } | ({ ok: false } & FileProblem);

/**
 * A review is the contract's checklist, each item ticked `[x]` (passes) or not, with evidence after the
 * assertion's text; every assertion must appear once, and nothing else may.
 */
export function parseReview(text: string, contract: Contract): ParsedReview {
  const parsed = parseFrontMatter(text, "commit: 1a2b3c4");
  if (!parsed.ok) return parsed;
  const commit = parsed.fields.get("commit");
  if (commit && !/^[0-9a-f]{4,40}$/.test(commit.value)) return {
    ok: false,
    line: commit.line,
    reason: `commit "${commit.value}" is not a commit hash`,
    fix: "write the reviewed commit's hash, e.g. commit: 1a2b3c4",
  };
  const lines = readAssertions(parsed.body, parsed.bodyLine);
  if (!lines.ok) return lines;
  const items: ReviewItem[] = [];
  for (const line of lines.assertions) {
    const assertion = matchAssertion(line, contract.assertions);
    if (!assertion) {
      return {
        ok: false,
        line: line.line,
        reason: `"${line.text.slice(0, 60)}" is not an assertion of sprint ${contract.sprint}'s contract`,
        fix: "copy each assertion exactly as the contract words it, then add your evidence after it",
      };
    }
    if (items.some((item) => item.assertion === assertion.text)) return {
      ok: false,
      line: line.line,
      reason: `the contract's assertion on its line ${assertion.line} is reviewed twice`,
      fix: "keep one",
    };
    items.push({
      assertion: assertion.text,
      passed: line.checked,
      evidence: line.text.slice(assertion.text.length).replace(/^[\s:—–-]+/, ""),
      line: line.line,
    });
  }
  const missing = contract.assertions.filter((assertion) => !items.some((item) => item.assertion === assertion.text));
  if (missing.length > 0) {
    const last = parsed.body.split("\n").length + parsed.bodyLine - 1;
    return {
      ok: false,
      line: Math.max(1, last),
      reason: `the review misses ${missing.length} of the contract's ${contract.assertions.length} assertions, `
        + `the first: "${missing[0]!.text.slice(0, 60)}" (its line ${missing[0]!.line})`,
      fix: "review every assertion: tick it [x] with evidence, or leave it [ ] and say why it fails",
    };
  }
  return { ok: true, items, ...(commit ? { commit: commit.value } : {}) };
}

export type SprintDecision = { kind: "done"; commit: string; reason: string } | { kind: "open"; reason: string };

/** Done when every assertion passes and the verifier kept the reviewed commit after the contract was agreed. */
export function decideSprint(input: {
  sprint: number; items: ReviewItem[]; commit: string | undefined; kept: ResultRow[]; agreedAt: string;
}): SprintDecision {
  const failing = input.items.filter((item) => !item.passed);
  const since = input.kept.filter((row) => row.description !== "baseline" && row.time >= input.agreedAt);
  const row = input.commit === undefined
    ? since.at(-1)
    : since.find((candidate) => sameCommit(candidate.commit, input.commit!));
  const passed = `${input.items.length - failing.length}/${input.items.length} assertions pass`;
  const named = failing.map((item) => `"${item.assertion.slice(0, 50)}"`).slice(0, 3).join(", ");
  const more = failing.length > 3 ? ", …" : "";
  if (failing.length > 0) return { kind: "open", reason: `${passed}; failing: ${named}${more}` };
  if (!row) {
    const which = input.commit === undefined ? "any commit of the generator" : `commit ${input.commit.slice(0, 7)}`;
    return { kind: "open", reason: `${passed}, but the verifier has not kept ${which} since the contract was agreed` };
  }
  return { kind: "done", commit: row.commit, reason: `${passed} and the verifier kept ${row.commit.slice(0, 7)}` };
}

// results.tsv holds 7-digit hashes; a reviewer may name a longer or a shorter prefix.
function sameCommit(a: string, b: string): boolean {
  return Math.min(a.length, b.length) >= 4 && (a.startsWith(b) || b.startsWith(a));
}

function matchAssertion(line: Assertion, assertions: Assertion[]): Assertion | undefined {
  // The longest match first: "loss falls" must not claim "loss falls below 1.0".
  return [...assertions].sort((a, b) => b.text.length - a.text.length)
    .find((assertion) =>
      line.text === assertion.text
        || (line.text.startsWith(assertion.text) && /^[\s:—–(,;-]/.test(line.text.slice(assertion.text.length))));
}
