import type { OrgProposal } from "../domain/init/index.js";

/** What `org init` tells after writing org.yaml: what it read, each guess in a line, then what to check. */
export function formatInitSummary(proposal: OrgProposal): string[] {
  const { fields, project } = proposal;
  const { name, goal } = fields.metric;
  const metric = name === "" ? "no metric found" : `metric ${name} (${goal || "goal to fill in"})`;
  const command = fields.command.length > 0 ? fields.command.map(quoteWord).join(" ") : "to fill in";
  const rows: [string, string][] = [
    ["verify", `${command} — ${metric}`],
    ["edits", fields.edits.join(", ") || "to fill in"],
    ["protected", fields.protected.join(", ") || "nothing"],
    ["runtime", `${fields.runtime} (${proposal.why.runtime}), ${fields.count} agent${fields.count === 1 ? "" : "s"}`],
    ["gpus", `${fields.gpus} (${proposal.why.gpus})`],
    ...(fields.share.length > 0 ? [["share", fields.share.join(", ")] as [string, string]] : []),
  ];
  const lines = [`read the repo: ${project.reason}`, ...rows.map(([key, value]) => `  ${key.padEnd(10)}${value}`)];
  if (proposal.checks.length > 0) lines.push("check:", ...proposal.checks.map((check) => `  - ${check}`));
  lines.push("next: read org.yaml (each guess says why), check it with `org validate`, then start with `org up`");
  return lines;
}

function quoteWord(word: string): string {
  return /^[\w./:=@+-]+$/.test(word) ? word : `"${word.replaceAll('"', '\\"')}"`;
}
