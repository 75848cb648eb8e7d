import { describe, expect, it } from "vitest";
import { describeJob } from "../../../src/domain/slurm/job.js";
import { parseGpuIndices, parseSqueue, parseSubmittedId, withGpus } from "../../../src/domain/slurm/parse.js";

// Lines as Slurm 22.05's `squeue -h -t all -o '%i|%j|%T|%r|%N|%k'` printed them on the test cluster.
const SQUEUE = `1|org-slurm-smoke|COMPLETED|None|node1|(null)
4|org-demo-r1|RUNNING|None|node1|org/demo/r1
6|org-demo-r5|PENDING|Resources||org/demo/r5
7|org-demo-r6|PENDING|Priority||org/demo/r6
8|org-demo-r2|CANCELLED|None||org/demo/r2
9|org-demo-r3|TIMEOUT|TimeLimit|node1|org/demo/r3
10|org-demo-r4|COMPLETING|None|node1|org/demo/r4
11|org-demo-r7|REQUEUED|BeginTime||org/demo/r7
12|org-demo-r8|SUSPENDED|None|node1|a|b
13|org-demo-r9|PENDING|None||org/demo/r9
`;

describe("slurm: parsing squeue", () => {
  it("types every state org acts on", () => {
    expect(parseSqueue(SQUEUE).map((job) => [job.id, job.kind, describeJob(job)])).toEqual([
      ["1", "ended", "ended COMPLETED"],
      ["4", "running", "running on node1"],
      ["6", "pending", "pending (Resources)"],
      ["7", "pending", "pending (Priority)"],
      ["8", "ended", "ended CANCELLED"],
      ["9", "ended", "ended TIMEOUT (TimeLimit)"],
      ["10", "ending", "ending (completing)"],
      ["11", "pending", "pending (requeued, BeginTime)"],
      ["12", "suspended", "suspended on node1"],
      ["13", "pending", "pending"],
    ]);
  });

  it("reads (null) as no comment and keeps a | inside the comment", () => {
    const jobs = parseSqueue(SQUEUE);
    expect([jobs[0]!.comment, jobs[1]!.comment, jobs[8]!.comment]).toEqual(["", "org/demo/r1", "a|b"]);
  });

  it("skips blank, short and non-job lines", () => {
    expect(parseSqueue("\nJOBID|NAME|STATE|REASON|NODELIST|COMMENT\n5|x|RUNNING\n"
      + "slurm_load_jobs error: Unable to contact slurm controller\n")).toEqual([]);
  });
});

describe("slurm: GPU indices from scontrol show job -d -o", () => {
  const detail = [
    "JobId=4 JobName=org-demo-r1 JobState=RUNNING Reason=None JOB_GRES=gpu:1   Nodes=node1 CPU_IDs=0 Mem=0 "
      + "GRES=gpu:1(IDX:2) MinCPUsNode=1 Comment=org/demo/r1",
    "JobId=5 JobName=two JobState=RUNNING JOB_GRES=gpu:a100:3   Nodes=node1 CPU_IDs=0-1 Mem=0 "
      + "GRES=gpu:a100:3(IDX:0-1,3) MinCPUsNode=1",
    "JobId=6 JobName=org-demo-r5 JobState=PENDING Reason=Resources JOB_GRES=(null) TresPerNode=gres:gpu:1",
    "JobId=7 JobName=smoke JobState=COMPLETED JOB_GRES=gpu:1   Nodes=node1 CPU_IDs=0 Mem=0 GRES= MinCPUsNode=1",
  ].join("\n");

  it("reads single indices, ranges and lists; jobs without an index are absent", () => {
    expect([...parseGpuIndices(detail)]).toEqual([["4", [2]], ["5", [0, 1, 3]]]);
  });

  it("fills running jobs only", () => {
    const jobs = withGpus(parseSqueue(SQUEUE), parseGpuIndices(detail));
    expect(jobs.filter((job) => job.kind === "running")).toEqual([
      { id: "4", name: "org-demo-r1", comment: "org/demo/r1", kind: "running", node: "node1", gpus: [2] },
    ]);
    expect(describeJob(jobs[1])).toBe("running on node1 GPU 2");
  });

  it("reads nothing from 'No jobs in the system'", () => {
    expect(parseGpuIndices("No jobs in the system\n").size).toBe(0);
  });
});

describe("slurm: sbatch --parsable output", () => {
  it.each([
    ["12\n", "12"],
    ["12;cluster\n", "12"],
    ["", undefined],
    ["sbatch: error: Batch job submission failed\n", undefined],
  ])("%j → %s", (stdout, id) => {
    expect(parseSubmittedId(stdout)).toBe(id);
  });
});
