// A sandboxed agent puts terminal escapes in everything it hands org (description, run output, note, message, claim,
// its own screen), through org's broker. What the person's commands print, and the files a person reads, hold none.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { pollUntil } from "../helpers/poll.js";
import { IDENTITIES, runOrgAs, teardownOrgAs, type OrgAs } from "./identities.js";
import { ATTACKS, HOSTILE, findUnsafe } from "./terminal-payloads.js";
import { bin, createTestOrg } from "../helpers/test-org/index.js";

const orgYaml = (name: string) => `name: ${name}
repo: .
base: main
gpus: none
runtimes:
  attacker: { command: ["${bin("terminal-attacker")}", b-1] }
  idle: { command: ["${bin("forever")}"] }
roles:
  a: { prompt: prompts/researcher.md, runtime: attacker, talks_to: [b], edits: [value.txt, output.txt] }
  b: { prompt: prompts/researcher.md, runtime: idle }
verify:
  command: [sh, verify.sh]
  metric: { name: val_bpb, pattern: '^val_bpb:\\s*([0-9.]+)' }
  repeats: 1
  keep: { k: 0, min_delta: 0, confirm: 0 }
`;

// The run prints what the agent wrote to output.txt: a crash's log tail carries its escapes to the verdict.
const FILES = {
  "verify.sh": 'cat output.txt 2>/dev/null\necho "val_bpb: $(head -n 1 value.txt)"\n',
  "value.txt": "1\n",
  "hostile.txt": HOSTILE,
};

let org: OrgAs | undefined;
afterEach(() => {
  teardownOrgAs(org);
  org = undefined;
});

function readIn(dir: string): string {
  if (!existsSync(dir)) return "";
  const names = readdirSync(dir).filter((name) => name.endsWith(".md"));
  return names.map((name) => readFileSync(join(dir, name), "utf8")).join("");
}

describe.each(IDENTITIES)("an agent's escapes never reach a person's terminal, as $name", (who) => {
  test("no command prints them, no file a person reads holds them, --json keeps the original", async () => {
    org = createTestOrg({ as: who, yaml: orgYaml, files: FILES });
    const { dir } = org;
    const state = join(dir, "state");
    const orgAs = (args: string[]) => runOrgAs(who, args, { cwd: dir });
    const up = orgAs(["up", "--no-attach"]);
    expect(up.stderr).not.toContain("WITHOUT a sandbox");
    expect(up.code, up.stderr).toBe(0);
    const file = (path: string) => (existsSync(join(state, path)) ? readFileSync(join(state, path), "utf8") : "");
    const attackLog = () => file("agents/a-1/own/attack.log");
    const inboxB = () => readIn(join(state, "agents/b-1/inbox"));
    // Each agent's baseline makes a row too: the attack's own row is the one with its description.
    const inboxA = () => readIn(join(state, "agents/a-1/inbox"));
    const verdict = () => file("results.tsv").includes("\tcrash\tidea") && inboxA().includes("verdict crash");
    const done = () => verdict() && attackLog().includes("== done") && inboxB() !== "";
    const explain = () => `${attackLog()}\n${file("results.tsv")}`;
    await pollUntil(done, { timeoutMs: 40_000, what: "the attack and its verdict", explain });
    for (const command of ["submit", "note", "send", "claim"]) expect(attackLog()).toContain(`\n${command}: 0\n`);

    const printed = {
      tried: orgAs(["tried"]), note: orgAs(["note"]), results: orgAs(["results"]), claims: orgAs(["claims", "--all"]),
      inboxB: orgAs(["inbox", "--agent", "b-1"]), inboxA: orgAs(["inbox", "--agent", "a-1"]),
      status: orgAs(["status"]), logs: orgAs(["logs", "a-1"]),
    };
    for (const [command, result] of Object.entries(printed)) {
      expect(result.code, `${command}: ${result.stderr}`).toBe(0);
      expect(findUnsafe(result.stdout), command).toBeUndefined();
      expect(findUnsafe(result.stderr), command).toBeUndefined();
    }
    for (const command of ["tried", "note", "inboxB", "claims", "logs"] as const) {
      expect(printed[command].stdout, command).toContain("idea");
    }
    expect(printed.inboxA.stdout).toContain("verdict crash");

    const files = {
      "results.tsv": file("results.tsv"), "log.md": file("log.md"), "notes.md": file("notes.md"),
      "claims.md": file("claims.md"), inbox: inboxB(),
    };
    for (const [name, text] of Object.entries(files)) {
      expect(text, name).toContain("idea");
      expect(findUnsafe(text), name).toBeUndefined();
    }

    // The daemon's pane, a person's terminal too, draws its own clears only: none of the agent's sequences.
    const daemon = file("daemon.log");
    expect(daemon).toContain("[org");
    for (const attack of [ATTACKS.clipboard, ATTACKS.title, ATTACKS.fakeVerdict, ATTACKS.c1Csi, ATTACKS.bidi]) {
      expect(daemon).not.toContain(attack);
    }

    const json = orgAs(["tried", "--json"]).stdout;
    expect(findUnsafe(json)).toBeUndefined();
    expect((JSON.parse(json) as { description: string }[]).map((entry) => entry.description)).toContain(HOSTILE);
  }, 90_000);
});
