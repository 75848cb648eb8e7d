import type { AgentStanding, ResultRow } from "../experiments/results-table.js";

/** What the digest says about one junior, read from results.tsv, its status.json and its task.md. */
export interface JuniorReport {
  agent: string;
  /** Its program's state, e.g. "running" or "failed: exited with code 1". */
  state: string;
  task: { from: string; time: string; title: string } | undefined;
  rows: ResultRow[];
  standing: AgentStanding | undefined;
}

const TEXT_MAX = 80;

/**
 * The chief's standup: per junior its task, latest results, best and crashes; bounded by
 * `maxBytes`, whole juniors dropped last-first.
 */
export function renderDigest(input: {
  now: Date; reason: string; metric: string; juniors: JuniorReport[]; latest: number; maxBytes: number;
  best: { agent: string; commit: string; metric: number } | undefined;
}): string {
  const best = input.best
    ? `Org best: ${input.metric} ${formatNumber(input.best.metric)} `
      + `by ${input.best.agent} (${input.best.commit.slice(0, 7)}).`
    : `No ${input.metric} measured yet.`;
  const head = [
    `# Standup ${input.now.toISOString().slice(0, 16).replace("T", " ")} UTC`,
    "",
    `${capitalize(input.reason)}. ${best}`,
  ].join("\n");
  const foot = "Details: `org results`; a junior's task is state/agents/<junior>/task.md.";
  const sections = input.juniors.map((junior) => renderJunior(junior, input.metric, input.latest));
  let kept = sections.length;
  const assemble = () =>
    [head, ...sections.slice(0, kept), ...(kept < sections.length
      ? [`… and ${sections.length - kept} more juniors: \`org results\``]
      : []), foot].join("\n\n") + "\n";
  while (kept > 0 && Buffer.byteLength(assemble()) > input.maxBytes) kept--;
  return assemble();
}

function renderJunior(junior: JuniorReport, metric: string, latest: number): string {
  const lines = [`## ${junior.agent} — ${shorten(junior.state)}`];
  lines.push(junior.task
    ? `- task from ${junior.task.from} at ${junior.task.time.slice(11, 16)}: ${shorten(junior.task.title)}`
    : "- task: none — give one with `org task`");
  const standing = junior.standing;
  if (standing?.best !== undefined) {
    const delta = standing.delta === undefined || standing.delta === 0
      ? "the baseline"
      : `${standing.delta > 0 ? "+" : ""}${formatNumber(standing.delta)} vs `
      + `baseline ${formatNumber(standing.baseline!)}`;
    lines.push(`- best: ${metric} ${formatNumber(standing.best)} (${delta}) at ${standing.bestCommit?.slice(0, 7)}`);
  } else lines.push(`- best: none kept yet`);
  if (standing) {
    const { keep, discard, crash, reject, fail } = standing.counts;
    const failed = fail > 0 ? `, ${fail} fail` : "";
    const counts = `${keep} keep, ${discard} discard, ${crash} crash, ${reject} reject${failed}`;
    lines.push(`- runs: ${standing.runs} (${counts})`);
  }
  const recent = junior.rows.slice(-latest).reverse();
  const describeRun = (row: (typeof recent)[number]) => {
    const metric = row.metric === undefined ? "" : ` ${formatNumber(row.metric)}`;
    return `${row.status}${row.gate ? ` (${row.gate})` : ""}${metric} "${shorten(row.description, 40)}"`;
  };
  if (recent.length > 0) lines.push(`- latest: ${recent.map(describeRun).join(" · ")}`);
  const crashes = junior.rows.filter((row) => row.status === "crash");
  if (crashes.length > 0) lines.push(`- crashes: ${crashes.length}, `
    + `the latest "${shorten(crashes.at(-1)!.description, 40)}" at ${crashes.at(-1)!.time.slice(11, 16)}`);
  return lines.join("\n");
}

function shorten(text: string, max = TEXT_MAX): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function formatNumber(value: number): string {
  return String(Number(value.toPrecision(6)));
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
