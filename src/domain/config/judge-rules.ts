import { resolve } from "node:path";
import { isJudgePreset, JUDGE_PRESETS } from "../judge/judge-argv.js";
import { joinOr } from "./did-you-mean.js";
import type { ConfigProbe } from "./probe.js";
import type { Problem } from "./locate.js";
import { asMap, type Raw } from "./raw.js";

/** verify.judge beyond types: weights summing to 1, a side of references each, a runtime with a headless mode. */
export function checkJudge(raw: Raw): Problem[] {
  const verify = asMap(raw.verify);
  if (!verify) return [];
  const judge = asMap(verify.judge);
  if (!judge) return verify.judge === undefined ? checkMetricCommand(verify) : [];
  const problems: Problem[] = [];
  if (verify.command !== undefined) {
    const message = "verify.command and verify.judge both give the metric";
    const fix = "keep one: a build step before the judge goes in verify.gates";
    problems.push({ path: ["verify", "command"], at: "key", message, fix });
  }
  if (verify.metric !== undefined && asMap(verify.metric)?.name !== "judge_score") {
    const message = "verify.metric is the judge's weighted score (judge_score, higher is better) "
      + "when verify.judge is set";
    problems.push({ path: ["verify", "metric"], at: "key", message, fix: "remove verify.metric" });
  }
  problems.push(...checkWeights(judge), ...checkReferences(judge), ...checkJudgeRuntime(raw, judge));
  return problems;
}

/** Without a judge, the command and the metric are the user's to give (the schema's default metric is the judge's). */
function checkMetricCommand(verify: Raw): Problem[] {
  const missing = (key: string, fix: string): Problem[] =>
    [{ path: ["verify"], message: `verify is missing required key "${key}"`, fix }];
  const command = "add command: [python, train.py], or judge: for a rubric judge (docs/judge.md)";
  return [
    ...(verify.command === undefined ? missing("command", command) : []),
    ...(verify.metric === undefined ? missing("metric", "add metric: <the metric to parse from the run log>") : []),
  ];
}

function checkWeights(judge: Raw): Problem[] {
  const weights = Object.values(asMap(judge.dimensions) ?? {});
  if (weights.length === 0 || weights.some((weight) => typeof weight !== "number")) {
    if (asMap(judge.dimensions) && weights.length === 0) {
      const fix = "name each dimension of the rubric with its weight, e.g. {design: 0.5, craft: 0.5}";
      return [{ path: ["verify", "judge", "dimensions"], message: "verify.judge.dimensions names no dimension", fix }];
    }
    return [];
  }
  const sum = (weights as number[]).reduce((total, weight) => total + weight, 0);
  if (Math.abs(sum - 1) < 1e-9) return [];
  const message = `verify.judge.dimensions' weights sum to ${Number(sum.toFixed(6))}, not 1`;
  return [{ path: ["verify", "judge", "dimensions"], message, fix: "change the weights so they add up to 1" }];
}

function checkReferences(judge: Raw): Problem[] {
  const references = asMap(judge.references);
  if (!references) return [];
  return (["good", "bad"] as const).flatMap((side): Problem[] => {
    const listed = references[side];
    if (Array.isArray(listed) && listed.length > 0) return [];
    if (listed !== undefined && !Array.isArray(listed)) return [];
    const path = listed === undefined ? ["verify", "judge", "references"] : ["verify", "judge", "references", side];
    const example = side === "good" ? "eval/good/landing.html" : "eval/bad/spam.html";
    const message = `verify.judge.references has no ${side} reference; calibration needs at least one good and one bad`;
    return [{ path, message, fix: `add ${side}: [${example}]` }];
  });
}

function checkJudgeRuntime(raw: Raw, judge: Raw): Problem[] {
  const name = judge.runtime;
  if (typeof name !== "string" || name === "") return [];
  const entry = asMap(asMap(raw.runtimes)?.[name]);
  const preset = entry ? entry.preset : name;
  if (typeof preset === "string" && isJudgePreset(preset)) return [];
  const path = ["verify", "judge", "runtime"];
  const presets = joinOr(JUDGE_PRESETS);
  const message = entry
    ? `verify.judge.runtime "${name}" is no agent CLI with a headless mode (runtimes.${name} has no preset ${presets})`
    : `verify.judge.runtime names "${name}", which is neither a preset nor defined under runtimes`;
  const fix = entry ? `set runtimes.${name}.preset, or name a preset: ${presets}` : `name a preset: ${presets}`;
  return [{ path, message, fix }];
}

/** The rubric and every reference on disk in the repo, and every dimension named by a heading of the rubric. */
export async function checkJudgeFiles(raw: Raw, repoDir: string, probe: ConfigProbe): Promise<Problem[]> {
  const judge = asMap(asMap(raw.verify)?.judge);
  if (!judge) return [];
  const references = asMap(judge.references);
  const files: { path: (string | number)[]; value: unknown }[] = [
    { path: ["verify", "judge", "rubric"], value: judge.rubric },
  ];
  for (const side of ["good", "bad"] as const) {
    const listed = references?.[side];
    if (!Array.isArray(listed)) continue;
    listed.forEach((value, index) => files.push({ path: ["verify", "judge", "references", side, index], value }));
  }
  const missing = await Promise.all(files.map(async ({ path, value }): Promise<Problem[]> => {
    if (typeof value !== "string" || value === "" || (await probe.exists(resolve(repoDir, value)))) return [];
    const what = path.length > 3 ? `verify.judge.references.${path[3]}[${path[4]}]` : "verify.judge.rubric";
    // A reference is what the person must supply, and only they know which: say what it should be.
    const fix = path.length > 3
      ? `put there a page the rubric should score ${path[3] === "good" ? "high" : "low"} and commit it, `
        + "or give its path relative to the repo"
      : "create it and commit it, or give its path relative to the repo";
    return [{ path, message: `${what} file "${value}" does not exist in the repo`, fix }];
  }));
  const named = typeof judge.rubric === "string" && judge.rubric !== "";
  const rubric = named ? await probe.readText?.(resolve(repoDir, judge.rubric as string)) : undefined;
  return [...missing.flat(), ...(rubric === undefined ? [] : checkDimensionsNamed(judge, rubric))];
}

/** A dimension must be a heading of the rubric (## Design): the judge scores what the rubric describes. */
function checkDimensionsNamed(judge: Raw, rubric: string): Problem[] {
  const headings = [...rubric.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)].map((match) => match[1]!.toLowerCase());
  return Object.keys(asMap(judge.dimensions) ?? {}).flatMap((dimension): Problem[] => {
    const word = new RegExp(`(^|[^a-z0-9_])${dimension.toLowerCase().replace(/[-]/g, "\\-")}($|[^a-z0-9_])`);
    if (headings.some((heading) => word.test(heading))) return [];
    const path = ["verify", "judge", "dimensions", dimension];
    const rubricPath = String(judge.rubric);
    const message = `verify.judge.dimensions.${dimension} is not named by a heading of the rubric ${rubricPath}`;
    const fix = `add a "## ${dimension}" section to the rubric saying what it asks, or remove the dimension`;
    return [{ path, at: "key", message, fix }];
  });
}
