import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runOrg } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { git } from "../../helpers/temp-repo.js";
import {
  createTestOrg, idleOrgYaml, teardownOrg, type TestOrg, upUntilBaselines,
} from "../../helpers/test-org/index.js";

// One idle researcher; the test is the agent. The unit gate is the repo's protected script, which tests what the
// candidate wrote in mode.txt: pass, fail with 60 lines, hang, or fork a child and pass. lint runs after it.
const orgYaml = idleOrgYaml(", edits: [mode.txt, value.txt]", `verify:
  command: [sh, train.sh]
  protected: [gates/unit.sh]
  metric: { name: val_bpb, pattern: '^val_bpb:\\s*([0-9.]+)', goal: minimize }
  timeout: 10s
  parallel: 1
  repeats: 1
  keep: { k: 2, min_delta: 0, confirm: 0 }
  gates:
    - { name: unit, command: [sh, gates/unit.sh], timeout: 2s }
    - { name: lint, command: [sh, -c, "echo lint ok"] }
`);

// Found by their arguments: in the run's sandbox (its own pid namespace) `$!` is not the host's pid.
const HANG = `300.${process.pid}`;
const FORKED = `301.${process.pid}`;
const UNIT = `#!/bin/sh
case "$(cat mode.txt)" in
  fail) for i in $(seq 1 60); do echo "unit line $i"; done; exit 1 ;;
  hang) echo "unit hangs"; sleep ${HANG} ;;
  fork) sleep ${FORKED} & echo "unit forked" ;;
esac
echo "unit ok"
`;
const TRAIN = '#!/bin/sh\necho "val_bpb: $(cat value.txt)"\n';

let org: TestOrg;
let state: string;
let base: string;
const worktree = () => join(org.dir, "worktrees", "researcher-1");
const org_ = (args: string[]) => runOrg(args, { cwd: org.dir, env: { COLUMNS: "200" } });

describe("verify.gates: each must pass before the metric counts", () => {
  beforeAll(async () => {
    org = createTestOrg({
      yaml: orgYaml,
      files: { "gates/unit.sh": UNIT, "train.sh": TRAIN, "mode.txt": "ok\n", "value.txt": "1.000\n" },
    });
    state = join(org.dir, "state");
    base = git(org.dir, ["rev-parse", "main"]).trim();
    await upUntilBaselines(org, ["researcher-1"], 20_000);
  }, 60_000);

  afterAll(() => teardownOrg(org));

  test("a failing gate is verdict fail naming it, with its own last 50 lines; "
    + "later gates and the metric never run", () => {
    const { short, lines } = submit("mode.txt", "fail\n", "break the unit tests");
    const log = gateLog(short, "unit");
    expect(lines).toEqual([
      `submitted ${short} "break the unit tests"; waiting for the verifier…`,
      `metric no metric · your best 1.000000 (${base.slice(0, 7)}) · delta - · fail`,
      "fail: gate unit failed: exit code 1",
      `your branch was reset to ${base.slice(0, 7)}; `
        + `the diff is saved in ${join(state, "patches", `researcher-1-${short}-fail.patch`)}`,
      `last lines of ${log}:`,
      ...Array.from({ length: 50 }, (_, index) => `unit line ${index + 11}`),
    ]);
    expect(readdirSync(join(state, "runs")).filter((file) => file.includes(short))).toEqual([log.split("/").at(-1)]);
    expect(lastRow()).toEqual([short, "0.000000", "fail", "break the unit tests", "unit"]);
    const results = org_(["results"]);
    expect(results.stdout).toMatch(/REJECT\s+FAIL/);
    expect(results.stdout).toContain(`gates failed: unit 1 (latest ${short} by researcher-1)`);
    expect(org_(["tried"]).stdout).toMatch(new RegExp(`${short}\\s+researcher-1\\s+fail \\(unit\\)`));
  });

  test("the same failing change again is answered by the ledger without a run", () => {
    const first = lastRow()[0]!;
    const { short, lines } = submit("mode.txt", "fail\n", "break the unit tests again");
    expect(lines[2]).toBe(`fail: already tried as ${first} by researcher-1: fail at gate unit; `
      + `not run again (${lines[2]!.match(/\((\d+\.\d)s of GPU/)![1]}s of GPU time saved; `
      + `\`org tried\` lists every idea tried)`);
    expect(readdirSync(join(state, "runs")).filter((file) => file.includes(short))).toEqual([]);
    expect(lastRow()).toEqual([
      short, "0.000000", "fail", `duplicate of ${first} by researcher-1: break the unit tests`, "unit",
    ]);
  });

  test("a hanging gate is killed at its timeout, its whole process group with it", async () => {
    const { short, lines } = submit("mode.txt", "hang\n", "wait for the network");
    expect(lines.slice(1, 3)).toEqual([
      `metric no metric · your best 1.000000 (${base.slice(0, 7)}) · delta - · fail`,
      "fail: gate unit timed out after 2s; process group killed",
    ]);
    expect(lines.slice(-2)).toEqual([`last lines of ${gateLog(short, "unit")}:`, "unit hangs"]);
    await pollUntil(() => sleepers(HANG).length === 0, {
      what: `the gate's sleep ${HANG} to be killed`,
      timeoutMs: 1000,
    });
    expect(lastRow()).toEqual([short, "0.000000", "fail", "wait for the network", "unit"]);
  });

  test("gates that pass (one forking a child that is killed) let the metric decide", async () => {
    writeFileSync(join(worktree(), "value.txt"), "0.900\n");
    const { short, lines } = submit("mode.txt", "fork\n", "lower the value");
    expect(lines.slice(1, 3)).toEqual([
      `metric 0.900000 · your best 0.900000 (${short}) · delta -0.100000 · keep`,
      "keep: val_bpb 0.9000 beats best 1.0000 by 0.1000 > min_delta 0.0000 (σ unknown: no repeated baseline yet)",
    ]);
    expect(sleepers(FORKED)).toEqual([]);
    expect(readFileSync(gateLog(short, "unit"), "utf8")).toBe("unit forked\nunit ok\n");
    expect(readFileSync(gateLog(short, "lint"), "utf8")).toBe("lint ok\n");
    expect(lastRow()).toEqual([short, "0.900000", "keep", "lower the value", ""]);
    writeFileSync(join(worktree(), "value.txt"), "0.950\n");
    const worse = submit("mode.txt", "ok\n", "raise the value");
    expect(worse.lines[2]).toBe("discard: val_bpb 0.9500 not better than best 0.9000 (+0.0500)");
  });

  test("the gate's own script is protected like the scorer: a change to it is rejected unrun", () => {
    const { short, lines } = submit("gates/unit.sh", "#!/bin/sh\nexit 0\n", "skip the unit tests");
    expect(lines[2]).toBe("reject: touches protected gates/unit.sh");
    expect(lastRow()).toEqual([short, "0.000000", "reject", "skip the unit tests", ""]);
  });

  test("org history names the failed gates of the program version they ran under (the "
    + "ledger's answer ran nothing)", () => {
    const history = org_(["history"]).stdout.split("\n");
    expect(history[0]).toMatch(/CRASHES\s+FAILED GATES/);
    expect(history[1]).toMatch(/\sunit×2\s/);
  });
});

function submit(file: string, text: string, message: string): { short: string; lines: string[] } {
  writeFileSync(join(worktree(), file), text);
  const result = runOrg(["submit", "-m", message], { cwd: worktree() });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  const lines = result.stdout.replace(/\n$/, "").split("\n");
  return { short: /^submitted ([0-9a-f]{7}) /.exec(lines[0]!)?.[1] ?? "", lines };
}

/** The last results.tsv row: commit, metric, status, description and the gate column. */
function lastRow(): string[] {
  const lines = readFileSync(join(state, "results.tsv"), "utf8").trimEnd().split("\n");
  expect(lines.filter((line) => line.startsWith("commit\t")).at(-1)).toBe("commit\tval_bpb\tmemory_gb\tstatus\t"
    + "description\tagent\tgpu\tseconds\ttime\tprogram\tgate\tlines_added\tlines_removed");
  const fields = lines.at(-1)!.split("\t");
  return [fields[0]!, fields[1]!, fields[3]!, fields[4]!, fields[10]!];
}

function gateLog(short: string, gate: string): string {
  const logs = readdirSync(join(state, "runs")).filter((file) =>
    file.includes(`-${short}-gate-`) && file.endsWith(`-gate-${gate}.log`));
  expect(logs).toHaveLength(1);
  return join(state, "runs", logs[0]!);
}

function sleepers(arg: string): string[] {
  const cmdline = (pid: string) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8");
    } catch {
      return "";
    }
  };
  return readdirSync("/proc").filter((pid) => /^\d+$/.test(pid) && cmdline(pid) === `sleep\0${arg}\0`);
}
