import { describe, expect, it } from "vitest";
import { isRequeueHold } from "../../../src/domain/slurm/decide-job.js";
import { describeMove, type SlurmJob } from "../../../src/domain/slurm/job.js";

const base = { name: "org-o-r1", comment: "org/o/r1" };
const on = (id: string, node: string, gpu: number): SlurmJob => ({ ...base, id, kind: "running", node, gpus: [gpu] });

describe("isRequeueHold: a job that ran and now waits on BeginTime was requeued (its node went down)", () => {
  const held: SlurmJob = { ...base, id: "7", kind: "pending", reason: "BeginTime" };
  it("the same job, running before, pending on BeginTime now", () => {
    expect(isRequeueHold(on("7", "node2", 1), held)).toBe(true);
  });
  it("not another job's wait, nor a job that never ran here, nor another reason", () => {
    expect(isRequeueHold(on("6", "node2", 1), held)).toBe(false);
    expect(isRequeueHold(undefined, held)).toBe(false);
    expect(isRequeueHold(on("7", "node2", 1), { ...held, reason: "Resources" })).toBe(false);
  });
});

describe("describeMove: what log.md says when an agent's job runs on another node", () => {
  it("a requeued job (same id) on another node", () => {
    expect(describeMove("r1", on("7", "node2", 1), on("7", "node3", 0))).toEqual({
      title: "r1 moved from node2 to node3", body: "job 7 (requeued), now running on node3 GPU 0",
    });
  });

  it("a new job on another node", () => {
    const move = describeMove("r1", on("7", "node2", 1), on("9", "node4", 2));
    expect(move?.body).toBe("job 7 → job 9, now running on node4 GPU 2");
  });

  it("nothing when it runs where it ran, ran nowhere before, or does not run yet", () => {
    expect(describeMove("r1", on("7", "node2", 1), on("9", "node2", 3))).toBeUndefined();
    expect(describeMove("r1", undefined, on("9", "node2", 3))).toBeUndefined();
    const held: SlurmJob = { ...base, id: "7", kind: "pending", reason: "BeginTime" };
    expect(describeMove("r1", on("7", "node2", 1), held)).toBeUndefined();
  });
});
