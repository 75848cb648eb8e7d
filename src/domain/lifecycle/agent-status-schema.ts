// An agent's status.json, read through this schema by its owner, agent-status-file.ts, which loads it only once a
// status file exists: `org status` reads every agent's and must not load zod before.
import * as z from "zod";
import type { AgentStatus } from "../state.js";

const StateSchema = z.enum(["starting", "pending", "running", "restarting", "failed", "stopped", "blocked"]);
const ExitSchema = z.looseObject({
  code: z.number().nullable(), signal: z.string().nullable(), at: z.string(), pid: z.number().optional(),
});

// Loose: a field a newer org wrote survives this one's rewrite.
const StatusSchema = z.looseObject({
  agent: z.string(),
  state: StateSchema,
  pid: z.number().nullable(),
  startedAt: z.string().nullable(),
  restarts: z.number(),
  consecutiveFailures: z.number(),
  lastExit: ExitSchema.nullable(),
  reason: z.string(),
  updatedAt: z.string(),
  restartAt: z.string().nullable().optional(),
});

/** A status file's JSON as a status; undefined when it is of another shape. */
export function parseAgentStatus(value: unknown): AgentStatus | undefined {
  const parsed = StatusSchema.safeParse(value);
  return parsed.success ? (parsed.data satisfies AgentStatus) : undefined;
}
