import type { Io } from "../../src/cli/io.js";

/** An Io for a command run in this process by `main`: the lines it prints to stdout and to stderr, apart. */
export function capture(): { io: Io; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (text) => void out.push(text), err: (text) => void err.push(text) }, out, err };
}
