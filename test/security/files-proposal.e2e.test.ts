// Red team, a meta agent's proposal copy: the daemon reads it outside the sandbox. The agent makes a prompt of its
// copy a link to another agent's worktree file (hidden from it) and asks for a reload: the daemon would diff that file
// into log.md, which the agent reads, and copy it over the org's prompt.
import { readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { IDENTITIES, runAs, runOrgAs, teardownOrgAs, type OrgAs } from "./identities.js";
import { bin, createTestOrg } from "../helpers/test-org/index.js";

const PRIVATE = "private notes of researcher-1";
const orgYaml = (name: string) => `name: ${name}
gpus: none
runtimes:
  idle: { command: ["${bin("forever")}"] }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: idle }
  meta: { prompt: prompts/meta.md, runtime: idle, edits: [org.yaml, "prompts/**"] }
`;

let org: OrgAs | undefined;
afterEach(() => {
  teardownOrgAs(org);
  org = undefined;
});

describe.each(IDENTITIES)("a meta agent's proposal copy as $name", (who) => {
  test("a prompt of the copy made a link to another worktree's file: " +
    "refused by name, not in log.md, the org's prompt as it was", () => {
    org = createTestOrg({ as: who, yaml: orgYaml, files: { "prompts/meta.md": "# Meta {{agent}}\n" } });
    const { dir } = org;
    const up = runOrgAs(who, ["up", "--no-attach"], { cwd: dir });
    expect(up.code, up.stderr).toBe(0);
    const asMeta = () =>
      runOrgAs(who, ["reload"], { cwd: join(dir, "worktrees", "meta-1"), env: { ORG_AGENT: "meta-1", ORG_ROOT: dir } });
    const copy = join(dir, "state", "agents", "meta-1", "proposal");
    expect(asMeta().code).toBe(0);
    const secret = join(dir, "worktrees", "researcher-1", "private.txt");
    expect(runAs(who, ["sh", "-c", 'printf "%s\\n" "$1" > "$2"', "sh", PRIVATE, secret], { cwd: dir }).code).toBe(0);
    const prompt = readFileSync(join(dir, "prompts", "researcher.md"), "utf8");
    // What the agent's shell does in its copy, which its sandbox lets it write.
    rmSync(join(copy, "prompts", "researcher.md"));
    symlinkSync(secret, join(copy, "prompts", "researcher.md"));
    const reload = asMeta();
    expect(reload.code).toBe(1);
    expect(reload.stderr).toContain(`${join(copy, "prompts", "researcher.md")} is a symbolic link: not followed`);
    expect(`${reload.stdout}${reload.stderr}`).not.toContain(PRIVATE);
    expect(readFileSync(join(dir, "state", "log.md"), "utf8")).not.toContain(PRIVATE);
    expect(readFileSync(join(dir, "prompts", "researcher.md"), "utf8")).toBe(prompt);
  }, 60_000);
});
