// The shape of a child record under state/children/, read back by child-records.ts.
import * as z from "zod";

/**
 * One child on record. pid: null while the spawn is under way, the child then found by `token` in its environment.
 * startTicks: the kernel's start time of the process (/proc/<pid>/stat field 22), so a reused pid is never taken
 * for it. group: it leads its own process group, and the whole group is ended. what: for people, e.g. "verify run
 * 2026-…-researcher-1-abc1234 on cpu0".
 */
export const ChildRecordSchema = z.object({
  pid: z.number().int().gt(1).nullable(),
  startTicks: z.number().nullable(),
  token: z.string(),
  group: z.boolean(),
  kind: z.enum(["verify", "waiter", "command"]),
  what: z.string(),
  daemonPid: z.number().int(),
  daemonTicks: z.number().nullable(),
});

export type ChildRecord = z.infer<typeof ChildRecordSchema>;
