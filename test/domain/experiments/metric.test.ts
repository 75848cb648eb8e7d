import { describe, expect, test } from "vitest";
import { parseMemoryGb, parseMetric } from "../../../src/domain/experiments/metric.js";

const LOG = [
  "step 1000: train_loss 0.4", "val_loss: 0.500000", "---", "val_loss: 0.085064", "training_seconds: 0.6",
  "peak_vram_mb: 45060.2", "",
].join("\n");

describe("parseMetric", () => {
  test("the last matching line wins", () => {
    expect(parseMetric(LOG, "^val_loss:\\s*([0-9.]+)")).toBe(0.085064);
  });
  test("^ anchors to each line, not just the start of the log", () => {
    expect(parseMetric("noise\nval_bpb: 0.9979\n", "^val_bpb: ([0-9.]+)$")).toBe(0.9979);
  });
  test("no matching line is undefined", () => {
    expect(parseMetric("Traceback (most recent call last)\nFAIL\n", "^val_loss:\\s*([0-9.]+)")).toBeUndefined();
  });
  test("a final nan is undefined even when an earlier line was a number", () => {
    expect(parseMetric("val_loss: 0.5\nval_loss: nan\n", "^val_loss:\\s*(\\S+)")).toBeUndefined();
  });
  test("infinity and a blank capture are undefined", () => {
    expect(parseMetric("val_loss: Infinity\n", "^val_loss:\\s*(\\S+)")).toBeUndefined();
    expect(parseMetric("val_loss: \n", "^val_loss:\\s*(\\S*)")).toBeUndefined();
  });
  test("Windows line endings, exponents and negatives parse", () => {
    expect(parseMetric("score: -1.5e-3\r\n", "^score: (\\S+)$")).toBe(-0.0015);
  });
  test("a pattern without a group uses the whole match", () => {
    expect(parseMetric("took 42\n", "\\d+")).toBe(42);
  });
  test("a global RegExp carries no state between lines", () => {
    expect(parseMetric("acc: 0.1\nacc: 0.2\n", /^acc: ([0-9.]+)/g)).toBe(0.2);
  });
});

describe("parseMemoryGb", () => {
  test("megabytes to gigabytes with one decimal, like autoresearch", () => {
    expect(parseMemoryGb(LOG, "^peak_vram_mb:\\s*([0-9.]+)")).toBe(44);
    expect(parseMemoryGb("peak_vram_mb: 0.0\n", "^peak_vram_mb:\\s*([0-9.]+)")).toBe(0);
    expect(parseMemoryGb("peak_vram_mb: 1600\n", "^peak_vram_mb:\\s*([0-9.]+)")).toBe(1.6);
  });
  test("missing memory is undefined", () => {
    expect(parseMemoryGb("val_loss: 1\n", "^peak_vram_mb:\\s*([0-9.]+)")).toBeUndefined();
  });
});
