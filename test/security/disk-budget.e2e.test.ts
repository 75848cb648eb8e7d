// Disk: an agent that writes past its budget, in its worktree or its state folder, is stopped, blocked with why and
// named in log.md, and stays stopped while the other agents' verdicts go on.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { pollUntil } from "../helpers/poll.js";
import { LOOPING_FILES } from "../helpers/stop-org.js";
import { countVerdicts, diskOrgYaml, explainOrg, logOf, statusOf } from "./disk-org.js";
import { IDENTITIES, runOrgAs, teardownOrgAs, type OrgAs } from "./identities.js";
import { createTestOrg } from "../helpers/test-org/index.js";

let org: OrgAs | undefined;
afterEach(() => {
  teardownOrgAs(org);
  org = undefined;
});

describe.each(IDENTITIES)("the disk budget as $name", (who) => {
  test("an agent writing past sandbox.disk.per_agent in its worktree or its state " +
    "folder is stopped, blocked with why, named in log.md; verdicts go on", async () => {
    org = createTestOrg({ as: who, yaml: diskOrgYaml("{ per_agent: 5M, every: 1s }", 200), files: LOOPING_FILES });
    const up = runOrgAs(who, ["up", "--no-attach"], { cwd: org.dir });
    expect(up.code, up.stderr).toBe(0);
    // Looked for in the fillers' status files, not with an `org status` process a look; then org status says it.
    const stateOf = (agent: string) => {
      const file = join(org!.dir, "state", "agents", agent, "status.json");
      return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { state: string }).state : undefined;
    };
    await pollUntil(() => ["filler-1", "stasher-1"].every((agent) => stateOf(agent) === "blocked"), {
      what: "both fillers blocked", timeoutMs: 30_000, explain: explainOrg(org),
    });
    const blocked = (statusOf(org).agents ?? []).filter((agent) => agent.name !== "researcher-1");
    const shown = blocked.map((agent) => [agent.name, agent.state]);
    expect(shown).toEqual([["filler-1", "blocked"], ["stasher-1", "blocked"]]);
    for (const agent of blocked) {
      const where = agent.name === "filler-1" ? "worktrees/filler-1" : "worktrees/stasher-1";
      expect(agent.reason).toMatch(
        new RegExp(
          `^wrote \\d+(\\.\\d)? MiB in ${where} and state/agents/${agent.name}, ` +
            `over sandbox\\.disk\\.per_agent \\(5\\.0 MiB\\), so its program was stopped — ` +
            `free space there or raise sandbox\\.disk\\.per_agent in org\\.yaml, ` +
            `then restart it \\(r in \`org watch\`, or \`org down && org up\`\\)$`,
        ),
      );
      expect(logOf(org)).toContain(`] blocked | ${agent.name}\n${agent.reason}\n`);
    }
    const files = [
      join(org.dir, "worktrees", "filler-1", "fill.bin"),
      join(org.dir, "state", "agents", "stasher-1", "own", "fill.bin"),
    ];
    const sizes = files.map((file) => statSync(file).size);
    expect(sizes.every((size) => size < 200 * 1024 * 1024)).toBe(true);
    // The other agent's verdicts keep coming while the fillers stay stopped: their files no longer grow.
    const before = countVerdicts(org);
    await pollUntil(() => countVerdicts(org!) >= before + 2, {
      what: "two more verdicts for researcher-1",
      timeoutMs: 30_000,
      explain: explainOrg(org),
    });
    expect(files.map((file) => statSync(file).size)).toEqual(sizes);
    const after = statusOf(org).agents!.filter((agent) => agent.name !== "researcher-1");
    expect(after.map((agent) => [agent.name, agent.state, agent.reason, agent.restarts])).toEqual(
      blocked.map((agent) => [agent.name, "blocked", agent.reason, agent.restarts]),
    );
    expect(runOrgAs(who, ["status"], { cwd: org.dir }).stdout).toMatch(/filler-1 .* blocked /);
  }, 90_000);
});
