// Red team, `org logs`: brokered, it runs outside the agent's sandbox. An agent makes its pane.log a link to another
// agent's worktree file and asks for its own log; an older org's leftover link is refused by name, and reclaimed.
import { existsSync, lstatSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { pollUntil } from "../helpers/poll.js";
import { filesAttackYaml } from "./files-org.js";
import { handOver, IDENTITIES, runAs, runOrgAs, teardownOrgAs, type OrgAs, upSandboxedAs } from "./identities.js";
import { createTestOrg } from "../helpers/test-org/index.js";

const PRIVATE = "private notes of b-1";
const orgYaml = filesAttackYaml("logs");

let org: OrgAs | undefined;
afterEach(() => {
  teardownOrgAs(org);
  org = undefined;
});

describe.each(IDENTITIES)("org logs of an agent's own pane as $name", (who) => {
  test("pane.log linked to another agent's worktree file: the file is not shown; " +
    "an older org's link is refused, then reclaimed", async () => {
    org = createTestOrg({ as: who, yaml: orgYaml });
    const { dir } = org;
    const agentDir = join(dir, "state", "agents", "a-1");
    const worktree = join(dir, "worktrees", "a-1");
    upSandboxedAs(who, dir);
    const secret = join(dir, "worktrees", "b-1", "private.txt");
    expect(
      runAs(who, ["sh", "-c", 'printf "%s\\n" "$1" > "$2" && : > "$3"', "sh", PRIVATE, secret, join(worktree, ".go")], {
        cwd: dir,
      }).code,
    ).toBe(0);
    const out = await pollUntil(
      () => {
        const text = existsSync(join(worktree, ".logs-out")) ? readFileSync(join(worktree, ".logs-out"), "utf8") : "";
        return text.includes("== done") ? text : undefined;
      },
      { timeoutMs: 30_000, what: "a-1's org logs", explain: () => readFileSync(join(worktree, ".attack.log"), "utf8") },
    );
    expect(out).not.toContain(PRIVATE);
    expect(lstatSync(join(agentDir, "pane.log")).isFile()).toBe(true);
    expect(readFileSync(join(worktree, ".attack.log"), "utf8")).toMatch(/refused: ln -s /);

    // What an older org let an agent leave behind: a link at pane.log, and progress.md in the folder itself.
    expect(runOrgAs(who, ["down"], { cwd: dir }).code).toBe(0);
    unlinkSync(join(agentDir, "pane.log"));
    symlinkSync(secret, join(agentDir, "pane.log"));
    writeFileSync(join(agentDir, "progress.md"), "- notes from before\n");
    handOver(who, join(agentDir, "progress.md"));
    const refused = runOrgAs(who, ["logs", "a-1"], { cwd: dir });
    expect(refused).toMatchObject({ code: 1, stdout: "" });
    expect(refused.stderr).toBe(
      `org: ${join(agentDir, "pane.log")} is a symbolic link: not followed — ` +
        `\`org up\` makes it the pane's log again\n`,
    );
    const again = runOrgAs(who, ["up", "--no-attach", "--resume"], { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(
      `warning: removed ${join(agentDir, "pane.log")}: a link or special file where org writes, ` +
        `left by an agent of an older org\n`,
    );
    expect(lstatSync(join(agentDir, "pane.log")).isFile()).toBe(true);
    expect(readFileSync(join(agentDir, "own", "progress.md"), "utf8")).toBe("- notes from before\n");
    expect(existsSync(join(agentDir, "progress.md"))).toBe(false);
    expect(runOrgAs(who, ["logs", "a-1"], { cwd: dir }).stdout).not.toContain(PRIVATE);
  }, 90_000);
});
