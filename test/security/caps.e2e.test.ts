// Issue 28, an allow-list sandbox with no capabilities: a
// scripted agent in a real tmux pane tries what an agent as root
// in a container would (undo its sandbox, reach the grid's tmux server, write the user's home and the host), as root
// and as an ordinary user. Every try fails, and nothing outside the sandbox changes.
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { pollUntil } from "../helpers/poll.js";
import { handOver, IDENTITIES, runOrgAs, teardownOrgAs, type OrgAs, upSandboxedAs } from "./identities.js";
import { bin, createTestOrg } from "../helpers/test-org/index.js";

const ZERO = "0000000000000000";
const BASHRC = "# the user's own\n";
const GITCONFIG = "[user]\n\tname = The User\n\temail = user@example.invalid\n";

const orgYaml = (home: string, tag: string) => (name: string) => `name: ${name}
gpus: none
runtimes:
  probe: { command: ["${bin("caps-probe")}", "${home}", "${tag}"] }
roles:
  a: { prompt: prompts/researcher.md, runtime: probe }
`;

let org: OrgAs | undefined;
let hostFiles: string[] = [];
afterEach(() => {
  teardownOrgAs(org);
  org = undefined;
  // Where a sandbox let them through (the old one, as root), gone again.
  for (const file of hostFiles) rmSync(file, { force: true });
});

describe.each(IDENTITIES)("an agent's capabilities and the host, as $name", (who) => {
  test("zero capabilities; the org stays read-only, the tmux server " +
    "out of reach, the user's home and the host unwritten", async () => {
    writeFileSync(join(who.home, ".bashrc"), BASHRC);
    writeFileSync(join(who.home, ".gitconfig"), GITCONFIG);
    handOver(who, who.home);
    const tag = `${process.pid}-${who.name}-${Math.floor(Math.random() * 1e6)}`;
    hostFiles = [`/usr/local/bin/org-caps-${tag}`, `/etc/org-caps-${tag}`, `/tmp/org-caps-${tag}`];
    org = createTestOrg({ as: who, yaml: orgYaml(who.home, tag) });
    const { dir } = org;
    upSandboxedAs(who, dir);
    const log = join(dir, "worktrees", "a-1", "caps.log");
    const read = () => (existsSync(log) ? readFileSync(log, "utf8") : "");
    await pollUntil(() => read().includes("== done"), {
      timeoutMs: 30_000,
      what: "the probe to finish",
      explain: () => read() || "no caps.log",
    });
    const lines = read()
      .trim()
      .split("\n")
      .map((line) =>
        line.includes(": ") ? [line.slice(0, line.indexOf(": ")), line.slice(line.indexOf(": ") + 2)] : [line, ""],
      );
    const readOnly = expect.stringMatching(/: Read-only file system$/);
    expect(Object.fromEntries(lines)).toEqual({
      caps: ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"]
        .map((cap) => `${cap}:${ZERO} `)
        .join("")
        .trim(),
      "remount org": expect.stringMatching(/^mount: .*: (permission denied|must be superuser to use mount)\. \/ /),
      "remount org in a user namespace": expect.stringMatching(
        /^(mount: .*: permission denied\.|unshare: write failed \/proc\/self\/uid_map: Operation not permitted)/,
      ),
      // Its own pid namespace hides the server's pid; were it seen, its root would still be out of reach.
      "tmux via /proc/<pid>/root": expect.stringMatching(
        new RegExp(
          /^error connecting to .*\/proc\/\d+\/root\/tmp\/tmux-\*\/org-\* .* /.source +
          /\/ ls: cannot access '\/proc\/\d+\/root\/tmp\/': (Permission denied|No such file or directory)$/.source,
        ),
      ),
      "write home .bashrc": readOnly,
      "write home .gitconfig": readOnly,
      "write /usr/local/bin": readOnly,
      "write /etc": readOnly,
      // Its /tmp is its own: written there, not in the host's.
      "write /tmp": "ok",
      "== done": "",
    });
    // Outside, as it was: the record, the org's folder, the home's files, the host's.
    expect(
      existsSync(join(dir, "state", "results.tsv")) ? readFileSync(join(dir, "state", "results.tsv"), "utf8") : "",
    ).not.toContain("forged");
    expect(existsSync(join(dir, "pwned-by-tmux"))).toBe(false);
    expect(readFileSync(join(who.home, ".bashrc"), "utf8")).toBe(BASHRC);
    expect(readFileSync(join(who.home, ".gitconfig"), "utf8")).toBe(GITCONFIG);
    expect(hostFiles.filter((file) => existsSync(file))).toEqual([]);
    // What it made is the user's outside (the uid mapped as is), for the daemon and git to use.
    expect(statSync(log).uid).toBe(who.uid);
    expect(runOrgAs(who, ["status"], { cwd: dir }).stdout).toMatch(/^a-1 +a +cpu +\d+ +running /m);
  }, 60_000);
});
