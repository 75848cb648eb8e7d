import { describe, expect, test } from "vitest";
import { parseLedger } from "../../../src/domain/experiments/ledger-schema.js";
import { parseLedgerView } from "../../../src/domain/experiments/ledger-view.js";

const measured = {
  best: { commit: "a".repeat(40), metric: 0.91, runs: 3 }, lastVerified: "b".repeat(40),
  baseline: { samples: [0.9, 0.92], mean: 0.91, sd: 0.014 }, runs: 4, noise: [[0.9, 0.91]],
};
const crashed = { best: null, lastVerified: null, baselineCrash: "crash: exit 1", baselineLog: "state/runs/x.log" };

describe("a ledger as the views read it, without the ledger's schema", () => {
  test("a measured and a crashed baseline read as the full schema reads them", () => {
    for (const ledger of [measured, crashed, { best: null, lastVerified: null }]) {
      expect(parseLedger(ledger).ok).toBe(true);
      expect(parseLedgerView(ledger)).toEqual(ledger);
    }
  });

  const shapes: [string, unknown][] = [
    ["a best without its metric", { ...measured, best: { commit: "a".repeat(40) } }],
    ["a best that is text", { ...measured, best: "abc" }],
    ["no best at all", { lastVerified: null }],
    ["a baseline sample that is text", { ...measured, baseline: { ...measured.baseline, samples: ["0.9"] } }],
    ["a baseline without its sd", { ...measured, baseline: { samples: [0.9], mean: 0.9 } }],
    ["a crash that is not text", { ...crashed, baselineCrash: 1 }],
    ["a log that is not text", { ...crashed, baselineLog: ["x"] }],
    ["a list", [measured]],
  ];
  test.each(shapes)("%s is refused by both", (_what, value) => {
    expect(parseLedger(value).ok).toBe(false);
    expect(parseLedgerView(value)).toBeUndefined();
  });
});
