import { describe, expect, it } from "vitest";
import { SlurmSchema } from "../../../src/domain/config/schema.js";
import {
  failedNodeOf,
  isNodeDown,
  nodeStateArgv,
  sbatchArgv,
  slurmPaneArgv,
  slurmPaneLaunch,
  slurmVerifyArgv,
} from "../../../src/domain/slurm/job-argv.js";

const request = (settings: object, gpu = true) => ({
  org: "demo",
  agent: "r1",
  gpu,
  output: "/org/state/agents/r1/slurm-job.out",
  cwd: "/org/worktrees/r1",
  settings: SlurmSchema.parse(settings),
  launch: { argv: ["claude"], cwd: "/org/worktrees/r1", env: {} },
});

describe("slurm: argv", () => {
  it("sbatch for a GPU agent with every setting", () => {
    const settings = { partition: "gpu", account: "lab", time_limit: "1-00:00:00", sbatch_args: ["--mem=8G"] };
    expect(sbatchArgv(request(settings))).toEqual([
      "sbatch", "--parsable", "--job-name=org-demo-r1", "--comment=org/demo/r1",
      "--gres=gpu:1", "--partition=gpu", "--account=lab",
      "--time=1-00:00:00", "--requeue", "--output=/org/state/agents/r1/slurm-job.out",
      "--chdir=/org/worktrees/r1", "--export=ALL", "--mem=8G",
      "--wrap", "exec sleep infinity",
    ]);
  });

  it("sbatch for a CPU job with defaults asks for no GPU, partition or account", () => {
    expect(sbatchArgv(request({}, false))).toEqual([
      "sbatch", "--parsable", "--job-name=org-demo-r1", "--comment=org/demo/r1", "--time=UNLIMITED", "--requeue",
      "--output=/org/state/agents/r1/slurm-job.out", "--chdir=/org/worktrees/r1", "--export=ALL",
      "--wrap", "exec sleep infinity",
    ]);
  });

  it("the pane runs the agent as an overlapping pty step of its job, argv untouched", () => {
    const argv = ["claude", "--append-system-prompt-file", "/p/prompt.md", "it's; $(rm -rf)"];
    expect(slurmPaneArgv("42", { argv, cwd: "/org/worktrees/r1" })).toEqual([
      "srun", "--jobid=42", "--overlap", "--pty", "--quiet", "--chdir=/org/worktrees/r1",
      "claude", "--append-system-prompt-file", "/p/prompt.md", "it's; $(rm -rf)",
    ]);
  });

  it("the verifier runs as another step of the same job, without a pty", () => {
    expect(slurmVerifyArgv("42", { argv: ["python", "train.py"], cwd: "/org/state/runs/abc" })).toEqual([
      "srun", "--jobid=42", "--overlap", "--quiet", "--chdir=/org/state/runs/abc", "python", "train.py",
    ]);
  });

  it("a run's log names the node that went down under it (srun may still exit 0), and nothing else does", () => {
    const log = [
      "started",
      "srun: error: Node failure on node3",
      "slurmstepd-node3: error: *** STEP 382.0 ON node3 CANCELLED AT "
        + "2026-12-05T03:11:25 DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***",
      "",
    ].join("\n");
    expect(failedNodeOf(log)).toBe("node3");
    const jobFailure = "slurmstepd: error: *** JOB 9 ON node2 CANCELLED AT 2026-12-05T03:11:25 DUE TO NODE FAILURE ***";
    expect(failedNodeOf(jobFailure)).toBe("node2");
    const timeLimit = "slurmstepd: error: *** STEP 812.0 ON node1 CANCELLED AT 2026-01-02T03:04:05 " +
      "DUE TO TIME LIMIT ***";
    expect(failedNodeOf(`${timeLimit}\nval_bpb: 1.0\n`)).toBeUndefined();
    expect(failedNodeOf("echo srun: error: Node failure on node3 was printed by the run itself")).toBeUndefined();
  });

  it("the controller's word on a node: down, drained, failed or not responding (*) is down; " +
    "idle, mixed, allocated are up", () => {
    expect(nodeStateArgv("node3")).toEqual(["scontrol", "--oneliner", "show", "node", "node3"]);
    const line = (state: string) => `NodeName=node3 Arch=x86_64 CoresPerSocket=1 CPUAlloc=1 State=${state} ` +
      "ThreadsPerCore=1 Reason=org-test [root@2026-12-05T05:31:02]\n";
    const downStates = [
      "DOWN", "DOWN*", "IDLE+DRAIN", "MIXED+DRAIN", "DOWN+COMPLETING", "FAIL", "IDLE*", "IDLE+NOT_RESPONDING",
    ];
    const down = downStates.map(line);
    expect(down.filter((state) => !isNodeDown(state))).toEqual([]);
    // sinfo's %T said `mixed` for a node just set DOWN while its killed job completed: only the State= field counts.
    const upStates = ["IDLE", "MIXED", "ALLOCATED", "MIXED+COMPLETING", "ALLOCATED+CLOUD"];
    expect(upStates.map(line).filter(isNodeDown)).toEqual([]);
    expect(["", "down\n", "scontrol: error: Invalid node name specified\n"].filter(isNodeDown)).toEqual([]);
  });

  it("the pane's launch runs org slurm-run with the agent's cwd and env", () => {
    const launch = { argv: ["claude"], cwd: "/w/r1", env: { A: "1" } };
    expect(slurmPaneLaunch(["node", "/org/bin/org.js"], "/org/state", launch, "r1")).toEqual({
      argv: ["node", "/org/bin/org.js", "slurm-run", "r1", "--state", "/org/state"], cwd: "/w/r1", env: { A: "1" },
    });
  });
});
