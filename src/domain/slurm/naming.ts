import { SAFE_NAME } from "../config/index.js";
// Jobs are found by their comment, never by user: the comment names the org and the agent exactly,
// while the job name (what people see in squeue) may be ambiguous across orgs ("org-a-b-c").

/** The job name people see in squeue: org-<org>-<agent>. */
export function slurmJobName(org: string, agent: string): string {
  return `org-${org}-${agent}`;
}

/** The comment that marks a job as this org's agent's: org/<org>/<agent>, like the branch prefix. */
export function slurmJobComment(org: string, agent: string): string {
  return `org/${org}/${agent}`;
}

/** The agent a job belongs to when its comment marks it as this org's; undefined for any other job. */
export function ownerOf(comment: string, org: string): string | undefined {
  const prefix = `org/${org}/`;
  if (!comment.startsWith(prefix)) return undefined;
  const agent = comment.slice(prefix.length);
  return SAFE_NAME.test(agent) ? agent : undefined;
}
