// Brokered commands are bounded: an agent starting 30 `org logs -f` at once gets OUTBOX_CAP of them run outside its
// sandbox and the rest refused with the cap named, and those run end with its pane. One org per identity: a-1's
// commands end with its pane, c-1's (its own cap, its own flood) with `org down`, which comes last.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { pollUntil } from "../helpers/poll.js";
import { IDENTITIES, runOrgAs, teardownOrgAs, type OrgAs, upSandboxedAs } from "./identities.js";
import { bin, createTestOrg, readJsonFile } from "../helpers/test-org/index.js";

const orgYaml = (name: string) => `name: ${name}
gpus: none
runtimes:
  flood: { command: ["${bin("broker-flood")}", b-1], restart: never }
  idle: { command: ["${bin("forever")}"] }
roles:
  a: { prompt: prompts/researcher.md, runtime: flood }
  b: { prompt: prompts/researcher.md, runtime: idle }
  c: { prompt: prompts/researcher.md, runtime: flood }
`;

const CAP = "org: a-1 has 4 org commands running already, the most an agent may run at once (4) — "
  + "wait for one to end, then run this again\n";

let org: OrgAs | undefined;

describe.each(IDENTITIES)("brokered commands are capped, end with their agent, as $name", (who) => {
  const gone = (agent: string) => pollUntil(() => findBrokered(agent).length === 0, {
    timeoutMs: 15_000, what: `${agent}'s commands to end`, explain: () => `left: ${findBrokered(agent).join(", ")}`,
  });

  beforeAll(() => {
    org = createTestOrg({ as: who, yaml: orgYaml });
    upSandboxedAs(who, org.dir);
  }, 60_000);
  afterAll(() => {
    teardownOrgAs(org);
    org = undefined;
  });

  test("30 org commands at once: 4 run, 26 are refused naming the cap, the 4 end with the agent's pane", async () => {
    const { dir } = org!;
    const flood = join(dir, "state", "agents", "a-1", "own", "flood");
    const isCap = (name: string) => readFileSync(join(flood, name), "utf8") === CAP;
    const refused = () => (existsSync(flood) ? readdirSync(flood).filter(isCap) : []);
    const explain = () => `${refused().length} refused; running: ${findBrokered("a-1").length}`;
    await pollUntil(() => refused().length === 26, { timeoutMs: 40_000, what: "26 refusals", explain });
    expect(findBrokered("a-1")).toHaveLength(4);
    // The pane ends (its bwrap killed, as when tmux loses it): its sandbox goes whole, and every command it started.
    const { pid } = readJsonFile<{ pid: number }>(join(dir, "state", "agents", "a-1", "status.json"));
    process.kill(pid, "SIGKILL");
    await gone("a-1");
    expect(runOrgAs(who, ["status"], { cwd: dir }).stdout).toMatch(/^b-1 +b +cpu +\d+ +running /m);
  }, 90_000);

  test("org down ends the commands an agent had running", async () => {
    const { dir } = org!;
    await pollUntil(() => findBrokered("c-1").length === 4, { timeoutMs: 40_000, what: "c-1's 4 commands running" });
    const down = runOrgAs(who, ["down"], { cwd: dir });
    expect(down.code, down.stderr).toBe(0);
    await gone("c-1");
  }, 90_000);
});

/** The process groups running a brokered command for `agent` now, as the daemon started them. */
function findBrokered(agent: string): number[] {
  const groups = new Set<number>(findRecordedGroups(agent));
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      // This org's commands only: other e2e files run beside this one, with agents named a-1 of their own.
      const environ = readFileSync(`/proc/${pid}/environ`, "latin1").split("\0");
      if (!environ.includes(`ORG_BROKERED_FOR=${agent}`) || !environ.includes(`ORG_ROOT=${org?.dir}`)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      groups.add(Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]));
    } catch {
      // Ended meanwhile, or not ours to read.
    }
  }
  return [...groups];
}

// A warm worker took on its environment after it started, which /proc/<pid>/environ never shows: its live group is
// found by the daemon's record of it, which names the agent.
function findRecordedGroups(agent: string): number[] {
  const records = join(org?.dir ?? "/nonexistent", "state", "children");
  const names = existsSync(records) ? readdirSync(records).filter((name) => /^\d+\.json$/.test(name)) : [];
  return names.flatMap((name) => {
    let record: { pid: number; what: string } | undefined;
    try {
      record = readJsonFile<{ pid: number; what: string }>(join(records, name));
    } catch {
      // Gone (or half written) meanwhile.
    }
    return record?.what.endsWith(` for ${agent}`) && isGroupAlive(record.pid) ? [record.pid] : [];
  });
}

function isGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
