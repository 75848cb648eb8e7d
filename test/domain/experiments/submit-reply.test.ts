import { describe, expect, test } from "vitest";
import type { ExperimentRequest } from "../../../src/domain/experiments/request.js";
import {
  formatSubmitReply, formatVerdictMessage, type VerdictFile,
} from "../../../src/domain/experiments/submit-reply.js";

const request: ExperimentRequest = {
  id: "2026-12-02T00-00-00-000Z-r-1-abcdef0", agent: "r-1", commit: "abcdef0123", description: "double\nthe lr",
  kind: "candidate", submittedAt: "2026-12-02T00:00:00.000Z", reply: "message",
};
const crash = (logTail: string): VerdictFile => ({
  id: request.id,
  best: { commit: "base000111", metric: 1 },
  outcome: {
    request, verdict: { kind: "crash", reason: "crash: exit 1" }, metric: undefined, memoryGb: undefined, seconds: 1,
    runSeconds: 1, samples: [], logFile: "state/runs/x.log", logTail, head: "base000111",
    patch: "state/patches/r-1-abcdef0-crash.patch",
  },
});

describe("the verdict as a message", () => {
  test("a title naming the experiment, then exactly the lines org submit prints", () => {
    const verdict = crash("Traceback\nValueError: nan");
    expect(formatVerdictMessage(verdict, 16384)).toBe([
      `## verdict crash for abcdef0 "double the lr" (\`org wait ${request.id}\` prints it again)`,
      ...formatSubmitReply(verdict),
    ].join("\n"));
    expect(formatSubmitReply(verdict).slice(-2)).toEqual([
      "last lines of state/runs/x.log:", "Traceback\nValueError: nan",
    ]);
  });

  test("a crash log too long for messages.max_bytes loses its oldest lines, never its last", () => {
    const lines = Array.from({ length: 50 }, (_, index) => `${String(index).padStart(2, "0")} ${"x".repeat(600)}`);
    const text = formatVerdictMessage(crash(lines.join("\n")), 16384);
    expect(Buffer.byteLength(text, "utf8")).toBeLessThanOrEqual(16384);
    expect(Buffer.byteLength(text, "utf8")).toBeGreaterThan(16384 - 700);
    expect(text.endsWith(lines.at(-1)!)).toBe(true);
    expect(text).not.toContain(lines[0]);
  });

  test("a description too long to fit even without a log is cut, so the message is still sent", () => {
    const long = {
      ...crash(""),
      outcome: { ...crash("").outcome, verdict: { kind: "crash" as const, reason: `crash: ${"é".repeat(20_000)}` } },
    };
    const text = formatVerdictMessage(long, 16384);
    expect(Buffer.byteLength(text, "utf8")).toBeLessThanOrEqual(16384);
    expect(text.endsWith("…")).toBe(true);
  });
});
