// state/stacks.jsonl: every stack tried, one line each, so no kept commit goes onto the same org best twice.
import { join } from "node:path";
import type { StackAttempt } from "../../domain/experiments/stack.js";
import { appendLines, readText } from "../fs/files.js";

function stacksFile(state: string): string {
  return join(state, "stacks.jsonl");
}

/** Every stack tried so far; a line cut short by a kill is skipped. */
export async function readStackAttempts(state: string): Promise<StackAttempt[]> {
  const lines = ((await readText(stacksFile(state))) ?? "").split("\n").filter((line) => line.trim() !== "");
  return lines.flatMap((line) => {
    try {
      const attempt = JSON.parse(line) as StackAttempt;
      return typeof attempt.kept === "string" && typeof attempt.onto === "string" ? [attempt] : [];
    } catch {
      return [];
    }
  });
}

export async function recordStackAttempt(state: string, attempt: StackAttempt): Promise<void> {
  await appendLines(stacksFile(state), [JSON.stringify(attempt)]);
}
