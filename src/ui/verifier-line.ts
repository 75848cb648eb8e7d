// The verifier in a line: its queue and the baselines, then a line per reason the base crashed, with its run log.
import { isAbsolute, relative } from "node:path";
import type { VerifierView } from "../domain/views/verifier.js";
import { cleanLine } from "../domain/safe-text.js";

/** `verifier: 2 running, 6 queued · baselines 3/8` (crashed ones counted where there are any). */
export function formatVerifierLine(view: VerifierView): string {
  const { done, total } = view.baselines;
  const crashed = view.crashed.length > 0 ? `, ${view.crashed.length} crashed` : "";
  const baselines = total > 0 ? ` · baselines ${done}/${total}${crashed}` : "";
  return `verifier: ${view.running} running, ${view.queued} queued${baselines}`;
}

/** One line per reason: `baseline crashed (r-1, r-2): crash: no line matched /…/ — run log: state/runs/….log`. */
export function describeCrashedBaselines(view: VerifierView, root: string): string[] {
  const byReason = new Map<string, { agents: string[]; log?: string }>();
  for (const crash of view.crashed) {
    const group = byReason.get(crash.reason) ?? { agents: [] };
    group.agents.push(crash.agent);
    group.log ??= crash.log;
    byReason.set(crash.reason, group);
  }
  return [...byReason].map(([reason, group]) => {
    const log = group.log ? ` — run log: ${isAbsolute(group.log) ? relative(root, group.log) : group.log}` : "";
    return cleanLine(`baseline crashed (${group.agents.join(", ")}): ${reason}${log}`);
  });
}
