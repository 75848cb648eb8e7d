import { describe, expect, test } from "vitest";
import { formatLogEntry } from "../../src/domain/log-entry.js";

const date = new Date("2026-04-02T23:30:00Z");

describe("formatLogEntry", () => {
  test("a heading alone", () => {
    expect(formatLogEntry({ date, op: "up", title: "3 agents on 2 GPUs" })).toBe(
      "## [2026-04-02] up | 3 agents on 2 GPUs\n",
    );
  });
  test("a heading and its body lines", () => {
    expect(formatLogEntry({
      date, op: "keep", title: "alice a1b2c3d LEARNING_RATE 0.01 -> 0.0125",
      body: "keep: val_loss 0.9812 < best 0.9850 (-0.0038)\nrun: state/runs/a1b2c3d.log\n",
    })).toBe("## [2026-04-02] keep | alice a1b2c3d LEARNING_RATE 0.01 -> 0.0125\n"
        + "keep: val_loss 0.9812 < best 0.9850 (-0.0038)\nrun: state/runs/a1b2c3d.log\n");
  });
  test("newlines in the title and op are flattened so one event stays one heading", () => {
    expect(formatLogEntry({ date, op: "crash\n", title: "try\r\nbigger   model\n" })).toBe(
      "## [2026-04-02] crash | try bigger model\n",
    );
  });
  test("a body line that looks like a heading is escaped out of the timeline", () => {
    const text = formatLogEntry({ date, op: "submit", title: "t", body: "## [2020-01-01] fake | entry" });
    expect(text).toBe("## [2026-04-02] submit | t\n\\## [2020-01-01] fake | entry\n");
    expect(text.split("\n").filter((line) => line.startsWith("## ["))).toHaveLength(1);
  });
  test("an empty body adds nothing", () => {
    expect(formatLogEntry({ date, op: "down", title: "stopped", body: "\n\n" }))
      .toBe("## [2026-04-02] down | stopped\n");
  });
});
