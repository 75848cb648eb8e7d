// Disk: an agent that fills the disk from its own folders is stopped, blocked with why, and named; verdicts go on.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { bin } from "../helpers/org-fixture.js";
import { pollUntil } from "../helpers/poll.js";
import { LOOPING_FILES } from "../helpers/stop-org.js";
import { createOrgRepoAs, IDENTITIES, runOrgAs, teardownOrgAs, type OrgAs } from "./identities.js";

const orgYaml = (disk: string, fill: number) => (name: string) => `name: ${name}
gpus: none
runtimes:
  filler: { command: ["${bin("disk-filler")}", worktree, "${fill}"] }
  stasher: { command: ["${bin("disk-filler")}", state, "${fill}"] }
  looper: { command: ["${bin("submit-loop")}"] }
roles:
  filler: { prompt: prompts/researcher.md, runtime: filler }
  stasher: { prompt: prompts/researcher.md, runtime: stasher }
  researcher: { prompt: prompts/researcher.md, runtime: looper, edits: [value.txt] }
verify:
  command: [sh, train.sh]
  metric: { name: val_bpb, pattern: '^val_bpb:\\s*([0-9.]+)', goal: minimize }
  timeout: 10s
  repeats: 1
  keep: { k: 0, min_delta: 0, confirm: 0 }
sandbox:
  disk: ${disk}
`;

interface AgentJson { name: string; state: string; reason: string; restarts: number }
const isRoot = process.getuid?.() === 0;
let org: OrgAs | undefined;
let mount: string | undefined;
afterEach(() => {
  teardownOrgAs(org);
  org = undefined;
  if (mount) spawnSync("umount", ["-l", mount]);
  if (mount) rmSync(mount, { recursive: true, force: true });
  mount = undefined;
});

const statusOf = (who: OrgAs) => JSON.parse(runOrgAs(who.who, ["status", "--json"], { cwd: who.dir }).stdout || "{}") as { agents?: AgentJson[]; disk?: { low: string | null } | null };
const logOf = (who: OrgAs) => readFileSync(join(who.dir, "state", "log.md"), "utf8");
// results.tsv rows of the researcher: its verdicts so far.
const verdictsOf = (who: OrgAs) => (existsSync(join(who.dir, "state", "results.tsv")) ? readFileSync(join(who.dir, "state", "results.tsv"), "utf8") : "").split("\n").filter((line) => line.includes("\tresearcher-1\t")).length;
const explain = (who: OrgAs) => () => `${logOf(who)}\n${runOrgAs(who.who, ["status"], { cwd: who.dir }).stdout}`;

describe.each(IDENTITIES)("disk attacks as $name", { tags: ["slow"] }, (who) => {
  test("an agent writing past sandbox.disk.per_agent in its worktree or its state folder is stopped, blocked with why, named in log.md; verdicts go on", async () => {
    org = createOrgRepoAs(who, orgYaml("{ per_agent: 5M, every: 1s }", 200), LOOPING_FILES);
    const up = runOrgAs(who, ["up", "--no-attach"], { cwd: org.dir });
    expect(up.code, up.stderr).toBe(0);
    const blocked = await pollUntil(() => {
      const agents = statusOf(org!).agents ?? [];
      const fillers = agents.filter((agent) => agent.name !== "researcher-1");
      return fillers.length === 2 && fillers.every((agent) => agent.state === "blocked") ? fillers : undefined;
    }, { what: "both fillers blocked", timeoutMs: 30_000, explain: explain(org) });
    for (const agent of blocked) {
      const where = agent.name === "filler-1" ? "worktrees/filler-1" : "worktrees/stasher-1";
      expect(agent.reason).toMatch(new RegExp(`^wrote \\d+(\\.\\d)? MiB in ${where} and state/agents/${agent.name}, over sandbox\\.disk\\.per_agent \\(5\\.0 MiB\\), so its program was stopped — free space there or raise sandbox\\.disk\\.per_agent in org\\.yaml, then restart it \\(r in \`org watch\`, or \`org down && org up\`\\)$`));
      expect(logOf(org)).toContain(`] blocked | ${agent.name}\n${agent.reason}\n`);
    }
    const files = [join(org.dir, "worktrees", "filler-1", "fill.bin"), join(org.dir, "state", "agents", "stasher-1", "own", "fill.bin")];
    const sizes = files.map((file) => statSync(file).size);
    expect(sizes.every((size) => size < 200 * 1024 * 1024)).toBe(true);
    // The other agent's verdicts keep coming while the fillers stay stopped: their files no longer grow.
    const before = verdictsOf(org);
    await pollUntil(() => verdictsOf(org!) >= before + 2, { what: "two more verdicts for researcher-1", timeoutMs: 30_000, explain: explain(org) });
    expect(files.map((file) => statSync(file).size)).toEqual(sizes);
    const after = statusOf(org).agents!.filter((agent) => agent.name !== "researcher-1");
    expect(after.map((agent) => [agent.name, agent.state, agent.reason, agent.restarts])).toEqual(blocked.map((agent) => [agent.name, "blocked", agent.reason, agent.restarts]));
    expect(runOrgAs(who, ["status"], { cwd: org.dir }).stdout).toMatch(/filler-1 .* blocked /);
  }, 90_000);

  // The floor needs a small disk to fill: a tmpfs, which only root may mount.
  test.skipIf(!isRoot)("below sandbox.disk.floor no verify run starts, log.md and org status name the agent that filled the disk; runs resume when space comes back, none lost", async () => {
    mount = mkdtempSync(join(tmpdir(), "org-sec-disk-"));
    expect(spawnSync("mount", ["-t", "tmpfs", "-o", "size=48m,mode=1777", "tmpfs", mount]).status).toBe(0);
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = mount;
    try {
      org = createOrgRepoAs(who, orgYaml("{ per_agent: 1G, floor: 24M, every: 1s }", 16), LOOPING_FILES);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    const up = runOrgAs(who, ["up", "--no-attach"], { cwd: org.dir });
    expect(up.code, up.stderr).toBe(0);
    const paused = await pollUntil(() => /\] paused \| verifier\n(.*)\n/.exec(logOf(org!))?.[1], { what: "the verifier paused", timeoutMs: 30_000, explain: explain(org) });
    expect(paused).toMatch(/^only \d+(\.\d)? MiB free on the disk of state\/, below sandbox\.disk\.floor \(24 MiB\): no verify run starts, queued ones wait and nothing is lost; most written: (filler-1|stasher-1) \d+ MiB \((worktrees\/filler-1|worktrees\/stasher-1)\), (filler-1|stasher-1) /);
    expect(runOrgAs(who, ["status"], { cwd: org.dir }).stdout).toContain(`verifier paused: ${paused.split(";")[0]}`);
    // While paused the researcher's submits queue up and none is judged.
    const queue = join(org.dir, "state", "queue");
    const rows = verdictsOf(org);
    const queued = await pollUntil(() => {
      const ids = readdirSync(queue).filter((name) => name.endsWith(".json"));
      return ids.length >= 3 ? ids : undefined;
    }, { what: "three requests queued while paused", timeoutMs: 20_000, explain: explain(org) });
    expect(verdictsOf(org)).toBe(rows);
    expect(logOf(org).match(/\] paused \| verifier/g)).toHaveLength(1);
    // A person frees the space: the verifier resumes by itself and every request queued meanwhile gets its verdict.
    for (const file of [join(org.dir, "worktrees", "filler-1", "fill.bin"), join(org.dir, "state", "agents", "stasher-1", "own", "fill.bin")]) rmSync(file, { force: true });
    await pollUntil(() => logOf(org!).includes("] resumed | verifier\n"), { what: "the verifier resumed", timeoutMs: 20_000, explain: explain(org) });
    await pollUntil(() => queued.every((name) => existsSync(join(org!.dir, "state", "verdicts", name))), { what: "a verdict for every request queued while paused", timeoutMs: 60_000, explain: explain(org) });
    expect(statusOf(org).disk?.low).toBeNull();
  }, 120_000);
});
