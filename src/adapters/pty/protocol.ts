// The pty host's control socket (state/pty.sock): one JSON object per line each way, replies matched by id.
// Requests are checked with zod on the host only: clients (every org command, through the world) import types alone.
import * as z from "zod";
import type { PtyPane } from "./host.js";

const MAX_KEYS = 16 * 1024;

/** A pane id (%3) or the agent name a pane is labelled with. */
const pane = z.string().min(1).max(200);
const id = z.union([z.number().int(), z.string().max(100)]).optional();
const text = z.string().max(64 * 1024);
const launch = z.object({
  argv: z.array(text).min(1).max(1000),
  cwd: z.string().min(1).max(4096),
  env: z.record(z.string().max(1000), text),
}).strict();
const labels = z.record(z.string().max(100), z.string().max(1000));
const paneSpec = launch
  .extend({ options: labels.optional(), logFile: z.string().min(1).max(4096).optional() })
  .strict();

const requestSchema = z.discriminatedUnion("op", [
  z.object({ id, op: z.literal("list") }).strict(),
  z.object({ id, op: z.literal("screen"), pane, attributes: z.boolean().optional() }).strict(),
  // paste: the data arrives as one paste, as tmux's paste-buffer -p sends it (bracketed when the program asked).
  z
    .object({ id, op: z.literal("keys"), pane, data: z.string().min(1).max(MAX_KEYS), paste: z.boolean().optional() })
    .strict(),
  z
    .object({
      id,
      op: z.literal("resize"),
      pane,
      cols: z.number().int().min(2).max(500),
      rows: z.number().int().min(2).max(300),
    })
    .strict(),
  z.object({ id, op: z.literal("respawn"), pane, launch: launch.optional() }).strict(),
  z.object({ id, op: z.literal("open"), panes: z.array(paneSpec).min(1).max(256) }).strict(),
  z.object({ id, op: z.literal("kill"), panes: z.array(pane).min(1).max(256) }).strict(),
  z.object({ id, op: z.literal("options"), pane, options: labels }).strict(),
  z.object({ id, op: z.literal("shutdown") }).strict(),
]);

export type PtyRequest = z.infer<typeof requestSchema>;
/** Where the program's cursor is, in screen cells from the top left. */
export interface Cursor {
  x: number;
  y: number;
}
type RequestId = PtyRequest["id"];

export type PtyReply =
  | { id?: RequestId; ok: true; panes: PtyPane[]; lines?: never; ids?: never }
  | { id?: RequestId; ok: true; lines: string[]; cursor: Cursor; history: number; panes?: never; ids?: never }
  | { id?: RequestId; ok: true; ids: string[]; panes?: never; lines?: never }
  | { id?: RequestId; ok: true; panes?: never; lines?: never; ids?: never }
  | { id?: RequestId; ok: false; error: string };

/** Parses one request line: the request, or the error to send back (with the id when one could be read). */
export function parseRequest(line: string): { request: PtyRequest } | { error: string; id?: RequestId } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { error: "not JSON — send one JSON object per line, e.g. {\"op\":\"list\"}" };
  }
  const parsed = requestSchema.safeParse(value);
  if (parsed.success) return { request: parsed.data };
  const raw = typeof value === "object" && value !== null ? (value as { id?: unknown }).id : undefined;
  const replyId = typeof raw === "number" || (typeof raw === "string" && raw.length <= 100) ? raw : undefined;
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  return {
    error: `bad request: ${where}${issue.message} — ops: list, screen(pane), keys(pane, data), ` +
      "resize(pane, cols, rows), respawn(pane, launch?), open(panes), kill(panes), options(pane, options), shutdown",
    ...(replyId === undefined ? {} : { id: replyId }),
  };
}
