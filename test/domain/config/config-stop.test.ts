import { describe, expect, it } from "vitest";
import { DIR, VALID, fakeProbe, load, problemsOf } from "../../fixtures/configs/fake-probe.js";
import { loadConfig } from "../../../src/domain/config/index.js";

const VERIFY = `verify:
  command: [sh, train.sh]
  metric: { name: val_bpb, pattern: '^val_bpb:\\s*([0-9.]+)' }
`;
const stop = (section: string, verify = VERIFY) => `${VALID}${verify}stop:\n${section}`;

describe("config: the stop section", () => {
  it("loads every condition, with the grace's default", async () => {
    const result = await load(stop(
      "  target: 0.95\n  max_experiments: 500\n  max_gpu_hours: 100\n  max_cost: 200\n  deadline: 48h\n  stall: 100\n",
      `${VERIFY}pricing:\n  "claude-*": { input: 3, output: 15 }\n`,
    ));
    expect(result.ok && result.loaded.config.stop).toEqual({
      target: 0.95, max_experiments: 500, max_gpu_hours: 100, max_cost: 200, deadline: "48h", stall: 100, grace: "2m",
    });
  });

  it("takes an ISO time as the deadline", async () => {
    expect(await problemsOf(stop("  deadline: 2099-01-31T18:00:00Z\n"))).toEqual([]);
  });

  it("refuses zero and negative limits, an unknown key and a deadline that is neither, all at once", async () => {
    const limits = "  max_experiments: 0\n  max_gpu_hours: -5\n  max_cost: 0\n  stall: -1\n"
      + "  deadline: tomorrow\n  max_experiment: 3\n";
    expect(await problemsOf(stop(limits))).toEqual([
      "org.yaml:12:20: stop.max_experiments must be greater than 0, got 0 — write a number above 0",
      "org.yaml:13:18: stop.max_gpu_hours must be greater than 0, got -5 — write a number above 0",
      "org.yaml:14:13: stop.max_cost must be greater than 0, got 0 — write a number above 0",
      "org.yaml:15:10: stop.stall must be greater than 0, got -1 — write a number above 0",
      'org.yaml:16:13: stop.deadline must be a duration from org up such as 48h, '
        + 'or an ISO time such as 2030-01-31T18:00:00Z, got "tomorrow" — write e.g. 48h',
      'org.yaml:17:3: unknown key "max_experiment" in stop — did you mean "max_experiments"?',
    ]);
  });

  it("refuses a target without a verify section to measure it", async () => {
    expect(await problemsOf(stop("  target: 0.95\n", ""))).toEqual([
      "org.yaml:9:11: stop.target needs a metric to compare with, but org.yaml has no verify section — "
        + "add a verify section with a metric, or remove stop.target",
    ]);
  });

  it("refuses an ISO deadline already past when told the time (org validate, "
    + "org up), and never otherwise", async () => {
    const text = stop("  deadline: 2020-01-31T18:00:00Z\n");
    const now = new Date("2025-06-01T00:00:00Z");
    const result = await loadConfig({ file: "org.yaml", dir: DIR, text, now }, fakeProbe());
    expect(result.ok ? [] : result.problems).toEqual([
      'org.yaml:12:13: stop.deadline "2020-01-31T18:00:00Z" is in the past (now 2025-06-01T00:00:00.000Z) — '
        + 'set a later time, or a duration from org up such as 48h',
    ]);
    // The daemon's own reads: an org must still load once its deadline has passed, or nothing could stop it.
    expect(await problemsOf(text)).toEqual([]);
  });

  it("refuses a cost limit where no model has a price", async () => {
    expect(await problemsOf(stop("  max_cost: 200\n"))).toEqual([
      'org.yaml:12:13: stop.max_cost counts dollars, but org.yaml prices no model — add a pricing section, e.g. '
        + 'pricing: {"claude-sonnet-*": {input: 3, output: 15}}, or remove stop.max_cost',
    ]);
  });

  it("refuses an ISO deadline that names no real time", async () => {
    expect(await problemsOf(stop("  deadline: 2030-13-45T18:00:00Z\n"))).toEqual([
      'org.yaml:12:13: stop.deadline "2030-13-45T18:00:00Z" is not a real time — '
        + 'write an ISO time such as 2030-01-31T18:00:00Z',
    ]);
  });
});
