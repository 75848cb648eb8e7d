import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { OrgRecord } from "../../../src/domain/state.js";
import { fakeGpuEnv, runOrg } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { git } from "../../helpers/temp-repo.js";
import { bin, createTestOrg, teardownOrg, type TestOrg, tmux } from "../../helpers/test-org/index.js";

const orgYaml = (count: number) => (name: string) => `name: ${name}
gpus: auto
runtimes:
  printer: { command: ["${bin("print-env-sleep")}"] }
roles:
  chief: { prompt: prompts/researcher.md, runtime: printer }
  researcher: { prompt: prompts/researcher.md, runtime: printer, count: ${count}, gpu: true }
`;

// Two idle GPUs and one that another user's job fills.
const env = fakeGpuEnv([
  "0, GPU-00000000-aaaa, NVIDIA H100 80GB HBM3, 1, 81559",
  "1, GPU-00000001-aaaa, NVIDIA H100 80GB HBM3, 70100, 81559",
  "2, GPU-00000002-aaaa, NVIDIA H100 80GB HBM3, 3, 81559",
]);

let org: TestOrg | undefined;
afterEach(() => {
  teardownOrg(org);
  org = undefined;
});

describe("GPU leases from nvidia-smi", () => {
  test("each GPU agent gets a distinct free GPU; busy GPUs are skipped with a warning", async () => {
    org = createTestOrg({ yaml: orgYaml(2) });
    const up = runOrg(["up"], { cwd: org.dir, env });
    expect(up.code).toBe(0);
    expect(up.stderr).toContain(
      "warning: GPU 1 (NVIDIA H100 80GB HBM3) is busy: 70100 MiB in use by another process; skipped",
    );
    const panes = tmux(org.socket, [
      "list-panes",
      "-s",
      "-t",
      `org-${org.name}`,
      "-F",
      "#{pane_id} #{@org_agent} #{@org_gpu}",
    ])
      .out.trim()
      .split("\n")
      .slice(1);
    expect(panes.map((line) => line.split(" ").slice(1).join(" "))).toEqual([
      "chief-1 cpu",
      "researcher-1 0",
      "researcher-2 2",
    ]);
    for (const [line, expected] of [[panes[0]!, ""], [panes[1]!, "0"], [panes[2]!, "2"]] as const) {
      const pane = line.split(" ")[0]!;
      const screen = await pollUntil(
        () => tmux(org!.socket, ["capture-pane", "-p", "-t", pane]).out.match(/^CUDA_VISIBLE_DEVICES=.*$/m)?.[0],
        { what: "CUDA_VISIBLE_DEVICES in the pane" },
      );
      expect(screen).toBe(`CUDA_VISIBLE_DEVICES=${expected}`);
    }
    expect(up.stdout).toMatch(/researcher-2\s+researcher\s+2\s+\d+\s+running/);
  });

  test("more GPU agents than free GPUs: a clear error at the role's count, nothing created", () => {
    org = createTestOrg({ yaml: orgYaml(3) });
    const up = runOrg(["up"], { cwd: org.dir, env });
    expect(up.code).toBe(1);
    expect(up.stderr.trim()).toBe(
      "org.yaml:7:73: 3 agents need a GPU each but only 2 GPUs are free (0, 2) — lower the counts of roles with gpu: " +
        "true, free a GPU, set verify.gpus: pool (verify runs share the GPUs, agents hold none), or set gpus: " +
        "none for CPU mode",
    );
    expect(tmux(org.socket, ["has-session"]).code).not.toBe(0);
    expect(existsSync(join(org.dir, "worktrees"))).toBe(false);
    expect(git(org.dir, ["branch", "--list", "org/*"]).trim()).toBe("");
    expect(readdirSync(join(org.dir, "state"))).toEqual([]);
  });

  test("verify.gpus: pool: more GPU agents than free GPUs come up, " +
    "none holding a GPU; the free GPUs are the pool", async () => {
    org = createTestOrg({
      yaml: (name) =>
        `${orgYaml(3)(name)}verify:\n  command: [x]\n  metric: { name: m, pattern: "^m: (.*)" }\n  gpus: pool\n`,
    });
    const up = runOrg(["up"], { cwd: org.dir, env });
    expect(up.code).toBe(0);
    const record = JSON.parse(readFileSync(join(org.dir, "state/org.json"), "utf8")) as OrgRecord;
    expect({ pool: record.pool, gpus: record.agents.map((agent) => agent.gpu) }).toEqual({
      pool: [0, 2],
      gpus: [null, null, null, null],
    });
    const panes = tmux(org.socket, ["list-panes", "-s", "-t", `org-${org.name}`, "-F", "#{pane_id}"])
      .out.trim()
      .split("\n")
      .slice(1);
    for (const pane of panes) {
      const screen = await pollUntil(
        () => tmux(org!.socket, ["capture-pane", "-p", "-t", pane]).out.match(/^CUDA_VISIBLE_DEVICES=.*$/m)?.[0],
        { what: "CUDA_VISIBLE_DEVICES in the pane" },
      );
      expect(screen).toBe("CUDA_VISIBLE_DEVICES=");
    }
    expect(readFileSync(join(org.dir, "state/log.md"), "utf8")).toMatch(
      /leases chief-1:pool researcher-1:pool researcher-2:pool researcher-3:pool; verify pool GPUs 0, 2;/,
    );
    // Views say the same: no agent's GPU column reads "cpu" when a GPU pool serves its runs.
    const status = runOrg(["status"], { cwd: org.dir, env });
    expect(
      status.stdout
        .split("\n")
        .filter((line) => /^(chief|researcher)-\d +\w/.test(line) && !line.includes(": usage"))
        .map((line) => line.split(/ +/)[2]),
    ).toEqual(["pool", "pool", "pool", "pool"]);
  });

  test("a reload that changes only the pool's GPUs applies it live: said, " +
    "logged, org.json's pool rewritten, no agent restarted", async () => {
    const yaml = (gpus: string) => (name: string) =>
      `${orgYaml(3)(name).replace("gpus: auto\n", `gpus: ${gpus}\n`)}reload: { watch: false }\nverify:\n  command: ` +
        `[x]\n  metric: { name: m, pattern: "^m: (.*)" }\n  gpus: pool\n`;
    org = createTestOrg({ yaml: yaml("auto") });
    const up = runOrg(["up"], { cwd: org.dir, env });
    expect(up.code, up.stderr).toBe(0);
    const recordOf = () => JSON.parse(readFileSync(join(org!.dir, "state/org.json"), "utf8")) as OrgRecord;
    expect(recordOf().pool).toEqual([0, 2]);
    const slots = () =>
      existsSync(join(org!.dir, "state/gpu-slots.json"))
        ? (JSON.parse(readFileSync(join(org!.dir, "state/gpu-slots.json"), "utf8")) as { slots: string[] }).slots
        : [];
    await pollUntil(() => slots().length === 2, { what: "the verifier's two pool slots" });
    expect(slots()).toEqual(["gpu0", "gpu2"]);
    const statusFile = (agent: string) => join(org!.dir, "state/agents", agent, "status.json");
    const pidOf = (name: string) => (JSON.parse(readFileSync(statusFile(name), "utf8")) as { pid: number | null }).pid;
    const pids = () => recordOf().agents.map((agent) => pidOf(agent.name));
    const before = await pollUntil(() => (pids().every((pid) => pid) ? pids() : undefined), {
      what: "every agent's pid",
    });
    writeFileSync(join(org.dir, "org.yaml"), yaml("[0]")(org.name));
    const reload = runOrg(["reload"], { cwd: org.dir, env });
    expect(reload.code, reload.stderr).toBe(0);
    expect(reload.stdout).toContain(
      "~ verify runs: a pool of GPU 0, 2 → a pool of GPU 0 (the pool's GPUs changed); " +
        "the verifier takes it up after the runs in flight, nothing restarts for it",
    );
    expect(recordOf().pool).toEqual([0]);
    expect(readFileSync(join(org.dir, "state/log.md"), "utf8")).toContain("reload | 1 action: ~pool (org reload)");
    expect(pids()).toEqual(before);
    // The daemon's verifier takes the new pool up: its slots are GPU 0's alone.
    await pollUntil(() => JSON.stringify(slots()) === JSON.stringify(["gpu0"]), {
      what: "the verifier on the new pool",
      timeoutMs: 20_000,
      explain: () => JSON.stringify(slots()),
    });
    // Applied once: the same org.yaml again is nothing to do.
    expect(runOrg(["reload"], { cwd: org.dir, env }).stdout).not.toContain("verify runs");
  });

  test("nvidia-smi failing means CPU mode with one warning", () => {
    org = createTestOrg({ yaml: orgYaml(1) });
    const up = runOrg(["up"], { cwd: org.dir, env: { ...env, FAKE_NVIDIA_SMI_FAIL: "1" } });
    expect(up.code).toBe(0);
    expect(up.stderr.trim()).toBe(
      `warning: CPU mode: no GPU found (nvidia-smi exited 9: NVIDIA-SMI has failed because it couldn't communicate ` +
        `with the NVIDIA driver.); agents get CUDA_VISIBLE_DEVICES=""`,
    );
  });
});
