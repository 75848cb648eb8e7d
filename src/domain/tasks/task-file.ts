import type { OrgConfig } from "../config/index.js";
import { formatFrontMatter } from "../front-matter.js";
import { resolveAgent, type Sender } from "../messages/wiring.js";

/** The junior a task is for, or why the caller may not give it one: tasks flow down reports_to. */
export function resolveTaskTarget(
  config: OrgConfig, sender: Sender, target: string,
): { ok: true; agent: string; role: string } | { ok: false; reason: string } {
  const found = resolveAgent(config, target);
  if (!found.ok) return found;
  if (sender.kind === "person") return found;
  const boss = config.roles[found.role]!.reports_to;
  if (boss === sender.role) return found;
  const fix = boss === undefined
    ? `add reports_to: ${sender.role} to roles.${found.role} in org.yaml`
    : `tasks for ${found.agent} come from role ${boss}; send a note instead: org send ${found.agent} "…"`;
  return {
    ok: false,
    reason: `${sender.agent} may not give ${found.agent} a task: `
      + `role ${found.role} does not report to role ${sender.role} — ${fix}`,
  };
}

/** task.md: who set it and when, then the task as written. */
export function formatTaskFile(task: { from: string; time: string; id: string; body: string }): string {
  return formatFrontMatter([["from", task.from], ["time", task.time], ["message", task.id]], task.body);
}

/** The message that tells the junior: the task itself, so one `org inbox` shows it, and where it stays. */
export function formatTaskMessage(from: string, taskFile: string, body: string): string {
  return `New task from ${from}; it stays in ${taskFile} ($ORG_TASK) `
    + `until the next one replaces it.\n\n${body.replace(/\s+$/, "")}\n`;
}
