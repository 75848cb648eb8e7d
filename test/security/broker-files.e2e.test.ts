// The broker is no confused deputy for files: a sandboxed agent's `org send -f` of a file its sandbox hides (another
// agent's worktree, by a relative path, an absolute one or a link) sends nothing, whoever runs the org.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { pollUntil } from "../helpers/poll.js";
import { IDENTITIES, runAs, teardownOrgAs, type OrgAs, upSandboxedAs } from "./identities.js";
import { bin, createTestOrg } from "../helpers/test-org/index.js";

const orgYaml = (name: string) => `name: ${name}
gpus: none
runtimes:
  reader: { command: ["${bin("broker-reader")}", b-1, c-1], restart: never }
  idle: { command: ["${bin("forever")}"] }
roles:
  a: { prompt: prompts/researcher.md, runtime: reader, talks_to: [b] }
  b: { prompt: prompts/researcher.md, runtime: idle }
  c: { prompt: prompts/researcher.md, runtime: idle }
`;

const FIX = "give a readable file (nothing was done)";

let org: OrgAs | undefined;
afterEach(() => {
  teardownOrgAs(org);
  org = undefined;
});

describe.each(IDENTITIES)("the broker reads files only as the agent could, as $name", (who) => {
  test("org send -f of another agent's file sends nothing: the shim cannot read it, no message holds it", async () => {
    org = createTestOrg({ as: who, yaml: orgYaml });
    const { dir } = org;
    upSandboxedAs(who, dir);
    const secret = `SECRET-${Math.random().toString(36).slice(2)}`;
    const file = join(dir, "worktrees", "c-1", "secret.txt");
    expect(runAs(who, ["sh", "-c", 'printf "%s\\n" "$1" > "$2"', "sh", secret, file], { cwd: dir }).code).toBe(0);
    const agent = join(dir, "state", "agents", "a-1", "own");
    expect(runAs(who, ["touch", join(agent, "go")], { cwd: dir }).code).toBe(0);
    const log = join(agent, "attack.log");
    const explain = () => (existsSync(log) ? readFileSync(log, "utf8") : "no attack.log");
    const done = () => existsSync(log) && readFileSync(log, "utf8").includes("== done");
    await pollUntil(done, { timeoutMs: 40_000, what: "the attack to finish", explain });
    const worktree = join(dir, "worktrees", "a-1");
    const refused = (path: string) => `send -f ${path}: 2 org: cannot read ${path} in ${worktree}: ${FIX}`;
    expect(readFileSync(log, "utf8").split("\n")).toEqual([
      refused("../c-1/secret.txt"),
      refused(file),
      refused("link.md"),
      "== done",
      "",
    ]);
    // The record stays true: no message went out, and the secret is nowhere in the org's state.
    const inbox = join(dir, "state", "agents", "b-1", "inbox");
    expect(readdirSync(inbox).filter((name) => name.endsWith(".md"))).toEqual([]);
    expect(findFilesHolding(join(dir, "state"), secret)).toEqual([]);
    expect(readFileSync(file, "utf8")).toBe(`${secret}\n`);
  }, 90_000);
});

/** Every regular file under `dir` whose content holds `text`. */
function findFilesHolding(dir: string, text: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).map((name) => join(dir, name)).filter((path) => {
    try {
      return statSync(path).isFile() && readFileSync(path, "utf8").includes(text);
    } catch {
      return false;
    }
  });
}
