// state/org.json's schema: its owner, org-record-file.ts, loads it only for a record its quick check refused, so
// `org status` (which reads the record every time) never loads zod.
import * as z from "zod";

// Loose, as a request is: a field a newer org wrote survives this one's rewrite. Only the agents (by name) are
// required, as before there was a schema: `org down` and the views make do with what a partial record holds.
const AgentRecordSchema = z.looseObject({
  name: z.string(), role: z.string().optional(), runtime: z.string().optional(), branch: z.string().optional(),
  worktree: z.string().optional(), gpu: z.number().nullable().optional(), paneId: z.string().optional(),
});

const OrgRecordSchema = z.looseObject({
  version: z.literal(1).optional(), name: z.string().optional(), root: z.string().optional(),
  repo: z.string().optional(), base: z.string().optional(), baseCommit: z.string().optional(),
  socket: z.string().optional(), session: z.string().optional(), mode: z.enum(["tmux", "pty"]).optional(),
  cpuMode: z.boolean().optional(), backend: z.enum(["local", "slurm"]).optional(), agents: z.array(AgentRecordSchema),
  pool: z.array(z.number()).optional(), controlPaneId: z.string().optional(), upAt: z.string().optional(),
});

/** What makes `value` no org record: its first problem, with the field. */
export function explainOrgRecord(value: unknown): string {
  const parsed = OrgRecordSchema.safeParse(value);
  if (parsed.success) return "";
  const issue = parsed.error.issues[0]!;
  return `${issue.path.length > 0 ? `${issue.path.join(".")}: ` : ""}${issue.message}`;
}
