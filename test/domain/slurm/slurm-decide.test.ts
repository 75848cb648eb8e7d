import { describe, expect, it } from "vitest";
import { decideAgentJob, jobsByAgent, selectJobsToCancel } from "../../../src/domain/slurm/decide-job.js";
import type { SlurmJob } from "../../../src/domain/slurm/job.js";
import { ownerOf, slurmJobComment, slurmJobName } from "../../../src/domain/slurm/naming.js";

const base = (id: string, agent = "r1", org = "demo") =>
  ({ id, name: slurmJobName(org, agent), comment: slurmJobComment(org, agent) });
const pending = (id: string, reason = "Resources"): SlurmJob => ({ ...base(id), kind: "pending", reason });
const running = (id: string, gpus = [0]): SlurmJob => ({ ...base(id), kind: "running", node: "node1", gpus });
const ended = (id: string, state: string, reason = "None"): SlurmJob => ({ ...base(id), kind: "ended", state, reason });

describe("slurm: one agent's job", () => {
  it("submits when Slurm knows no job of the agent", () => {
    expect(decideAgentJob([])).toEqual({ kind: "submit", reason: "no job of this agent is known to Slurm" });
  });

  it("adopts a running job instead of submitting a duplicate", () => {
    expect(decideAgentJob([running("4", [2])])).toEqual({
      kind: "adopt", job: running("4", [2]), cancel: [], reason: "job 4 is running on node1 GPU 2",
    });
  });

  it("adopts a pending job and says why it waits", () => {
    expect(decideAgentJob([pending("6")])).toMatchObject({
      kind: "adopt",
      cancel: [],
      reason: "job 6 is pending (Resources)",
    });
  });

  it("keeps the running job of duplicates and cancels the others", () => {
    expect(decideAgentJob([pending("3"), running("9"), pending("11")])).toMatchObject({
      kind: "adopt", job: { id: "9" }, cancel: ["3", "11"],
      reason: "job 9 is running on node1 GPU 0; cancelling duplicate jobs 3, 11",
    });
  });

  it("keeps the oldest of pending duplicates", () => {
    expect(decideAgentJob([pending("12"), pending("10")])).toMatchObject({
      kind: "adopt",
      job: { id: "10" },
      cancel: ["12"],
    });
  });

  it.each([
    ["CANCELLED", "None", "job 8 ended CANCELLED"],
    ["TIMEOUT", "TimeLimit", "job 8 ended TIMEOUT (TimeLimit)"],
    ["PREEMPTED", "None", "job 8 ended PREEMPTED"],
    ["NODE_FAIL", "None", "job 8 ended NODE_FAIL"],
  ])("resubmits after %s", (state, reason, text) => {
    expect(decideAgentJob([ended("8", state, reason)])).toEqual({
      kind: "resubmit",
      after: ended("8", state, reason),
      reason: text,
    });
  });

  it("resubmits after the newest ended job, not an older one", () => {
    expect(decideAgentJob([
      ended("8", "CANCELLED"), ended("21", "TIMEOUT", "TimeLimit"), ended("9", "FAILED"),
    ])).toMatchObject({ kind: "resubmit", after: { id: "21" } });
  });

  it("adopts a live job even when older ones ended", () => {
    expect(decideAgentJob([ended("8", "CANCELLED"), pending("9")])).toMatchObject({ kind: "adopt", job: { id: "9" } });
  });

  it("waits while the last job still releases its allocation", () => {
    expect(decideAgentJob([ended("7", "CANCELLED"), { ...base("8"), kind: "ending", state: "COMPLETING" }])).toEqual({
      kind: "wait",
      reason: "job 8 is ending (completing)",
    });
  });
});

describe("slurm: whose jobs", () => {
  const other = (id: string, comment: string): SlurmJob =>
    ({ id, name: "org-demo-r1", comment, kind: "running", node: "node1", gpus: [] });
  const jobs: SlurmJob[] = [
    running("1"), pending("2"), ended("3", "CANCELLED"), { ...base("4", "r2"), kind: "ending", state: "COMPLETING" },
    other("5", ""), other("6", "org/demo-x/r1"), other("7", "org/demo/../r1"),
    { ...base("8", "r1", "other"), kind: "pending", reason: "Priority" },
  ];

  it("cancels exactly this org's jobs that still hold or wait for an allocation", () => {
    expect(selectJobsToCancel(jobs, "demo")).toEqual(["1", "2", "4"]);
  });

  it("groups this org's jobs by agent; a job named like ours but not commented as ours is not ours", () => {
    expect([...jobsByAgent(jobs, "demo")].map(([agent, list]) => [agent, list.map((job) => job.id)])).toEqual([
      ["r1", ["1", "2", "3"]],
      ["r2", ["4"]],
    ]);
  });

  it("reads the owner from the comment only", () => {
    expect([
      ownerOf("org/demo/r1", "demo"), ownerOf("org/demo/r1", "dem"), ownerOf("org/demo/a/b", "demo"),
      ownerOf("org/demo/", "demo"),
    ]).toEqual(["r1", undefined, undefined, undefined]);
  });
});
