// The edits and protected globs against the base commit: a rule that matches no file there is most often a typo.
import { findClosest, formatPath, type OrgConfig } from "../config/index.js";
import { matchesRule } from "../experiments/path-rules.js";
import { listConfigFiles } from "../reconcile/meta-check.js";
import { describeBase, type BaseTree, type Findings } from "./base-tree.js";

/**
 * Every protected rule must match a file of the base (else it protects nothing). An edits rule that matches nothing is
 * an error when it is a glob or a near miss of a file; a plain path far from any file is a file the role may create
 * (a chief's plan.md), so only a warning. A meta role's org.yaml and prompts live in the org folder, not the commit.
 */
export function checkGlobs(config: OrgConfig, tree: BaseTree): Findings {
  const findings: Findings = { problems: [], warnings: [] };
  const configFiles = listConfigFiles(config);
  const where = describeBase(tree);
  for (const [role, spec] of Object.entries(config.roles)) {
    for (const [index, rule] of spec.edits.entries()) {
      if (matchesAny(tree.files, rule) || matchesAny(configFiles, rule)) continue;
      const path = ["roles", role, "edits", index];
      const message = `${formatPath(path)} "${rule}" matches no file at ${where}`;
      const closest = isGlob(rule) ? undefined : findClosest(rule, tree.files);
      if (closest !== undefined) {
        findings.problems.push({ path, message, fix: `did you mean "${closest}"?` });
      } else if (isGlob(rule)) {
        findings.problems.push({ path, message, fix: `fix the glob, or commit a file it matches (${listHint(tree)})` });
      } else {
        const fix = "its agents can only create it; if it is a typo, name a file of the commit";
        findings.warnings.push({ path, message, fix });
      }
    }
  }
  for (const [index, rule] of (config.verify?.protected ?? []).entries()) {
    if (matchesAny(tree.files, rule)) continue;
    const path = ["verify", "protected", index];
    const closest = isGlob(rule) ? undefined : findClosest(rule, tree.files);
    const fix = closest !== undefined
      ? `did you mean "${closest}"?`
      : `it protects nothing: fix the path, commit the file, or remove it (${listHint(tree)})`;
    findings.problems.push({ path, message: `${formatPath(path)} "${rule}" matches no file at ${where}`, fix });
  }
  return findings;
}

function matchesAny(files: readonly string[], rule: string): boolean {
  return files.some((file) => matchesRule(file, rule));
}

function isGlob(rule: string): boolean {
  return /[*?]/.test(rule);
}

function listHint(tree: BaseTree): string {
  return `\`git ls-tree -r --name-only ${tree.base}\` lists them`;
}
