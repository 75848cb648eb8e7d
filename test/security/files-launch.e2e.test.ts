// Red team, the launch spec: an agent whose runtime says restart: never edits its launch.json to restart: always,
// passing another runtime's secret, and exits. Its restart policy and secrets come from org.yaml, as org resolved it.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { AgentStatus } from "../../src/domain/state.js";
import { pollUntil } from "../helpers/poll.js";
import { IDENTITIES, runOrgAs, teardownOrgAs, type OrgAs, upSandboxedAs } from "./identities.js";
import { bin, createTestOrg } from "../helpers/test-org/index.js";

const SECRET = "sk-other-runtime-s3cr3t";
const orgYaml = (name: string) => `name: ${name}
gpus: none
runtimes:
  attack: { command: ["${bin("files-attack")}", launch, b-1], restart: never }
  keyed: { command: ["${bin("forever")}"], pass_env: [OTHER_SECRET] }
roles:
  a: { prompt: prompts/researcher.md, runtime: attack }
  b: { prompt: prompts/researcher.md, runtime: keyed }
`;

let org: OrgAs | undefined;
afterEach(() => {
  teardownOrgAs(org);
  org = undefined;
});

describe.each(IDENTITIES)("an agent's launch spec as $name", (who) => {
  test("launch.json edited to restart: always with another runtime's secret: " +
    "not restarted, the secret never reaches it", async () => {
    org = createTestOrg({ as: who, yaml: orgYaml });
    const { dir } = org;
    const agentDir = join(dir, "state", "agents", "a-1");
    const worktree = join(dir, "worktrees", "a-1");
    upSandboxedAs(who, dir, { OTHER_SECRET: SECRET });
    const launch = readFileSync(join(agentDir, "launch.json"), "utf8");
    const status = await pollUntil(
      () => {
        const read = JSON.parse(readFileSync(join(agentDir, "status.json"), "utf8")) as AgentStatus;
        return read.lastExit ? read : undefined;
      },
      {
        timeoutMs: 30_000,
        what: "a-1's exit recorded",
        explain: () => readFileSync(join(worktree, ".attack.log"), "utf8"),
      },
    );
    expect(status).toMatchObject({ state: "stopped", restarts: 0, lastExit: { code: 0 } });
    expect(readFileSync(join(worktree, ".attack.log"), "utf8")).toMatch(/refused: sed -i /);
    expect(readFileSync(join(agentDir, "launch.json"), "utf8")).toBe(launch);
    expect(JSON.parse(launch)).toMatchObject({ restart: "never" });
    expect(JSON.parse(launch)).not.toHaveProperty("passEnv");
    expect(existsSync(join(worktree, ".second"))).toBe(false);
    expect(readFileSync(join(agentDir, "pane.log"), "utf8")).not.toContain(SECRET);
    // Up again, a-1 starts as org.yaml says: without the other runtime's secret.
    expect(runOrgAs(who, ["down"], { cwd: dir }).code).toBe(0);
    const again = runOrgAs(who, ["up", "--no-attach", "--resume"], { cwd: dir, env: { OTHER_SECRET: SECRET } });
    expect(again.code, again.stderr).toBe(0);
    const second = await pollUntil(
      () => (existsSync(join(worktree, ".second")) ? readFileSync(join(worktree, ".second"), "utf8") : undefined),
      { timeoutMs: 30_000, what: "a-1 started again" },
    );
    expect(second).toBe("second run: secret=[]\n");
  }, 90_000);
});
