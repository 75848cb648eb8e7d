import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { readAndLoadConfig } from "../../../src/adapters/store/config-file.js";
import { recordProgram, recordProgramStop } from "../../../src/adapters/store/program-record.js";
import { runOrg } from "../../helpers/org-cli.js";
import { createRepo, git, removeDir } from "../../helpers/temp-repo.js";

const orgYaml = (count: number, base = "main") => `# the toy org
name: toy
repo: .
base: ${base}
gpus: none
runtimes:
  printer: { command: [sleep, "1000"] }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: printer, count: ${count} }
`;
const PROMPT = "# Researcher\nYou are {{agent}}.\n";

let dir: string;
beforeEach(() => {
  dir = createRepo({ "train.py": "print('val_bpb: 1.0')\n", "org.yaml": orgYaml(1), "prompts/researcher.md": PROMPT });
});
afterEach(() => removeDir(dir));

const state = () => join(dir, "state");
const org = (args: string[]) => runOrg(args, { cwd: dir });
const read = (path: string) => readFileSync(join(dir, path), "utf8");

/** Record the program org.yaml and the prompts hold now, as `org up` or a reload would. */
async function record(by: string, at: string, start = false): Promise<string> {
  const loaded = await readAndLoadConfig({ cwd: dir });
  if (!("loaded" in loaded)) throw new Error(loaded.problems.join("\n"));
  return recordProgram({ state: state(), loaded: loaded.loaded, by, at: new Date(at), start });
}

/** v1 (one researcher) by `org up`, then v2 (two, a longer prompt) by a save the daemon applied. */
async function twoVersions(): Promise<[string, string]> {
  const v1 = await record("org up", "2026-01-07T10:00:00.000Z", true);
  writeFileSync(join(dir, "org.yaml"), orgYaml(2));
  writeFileSync(join(dir, "prompts/researcher.md"), `${PROMPT}Be brief.\n`);
  const v2 = await record("daemon", "2026-01-07T11:00:00.000Z");
  return [v1, v2];
}

/** org.yaml, the prompt and everything under state/, to show a refused command changed nothing. */
function snapshotFiles(): string {
  const prompt = existsSync(join(dir, "prompts/researcher.md")) ? read("prompts/researcher.md") : "(deleted)";
  return JSON.stringify([read("org.yaml"), prompt, git(dir, ["status", "--porcelain", "--untracked-files=all"])]);
}

describe("recording program versions", () => {
  test("each version is saved once with who ran it first; " +
    "a change is a log.md entry saying what changed and who", async () => {
    const [v1, v2] = await twoVersions();
    expect(v1).not.toBe(v2);
    // The same program again (a comment edit) is no new version and no entry.
    writeFileSync(join(dir, "org.yaml"), `${orgYaml(2)}# a comment\n`);
    expect(await record("org reload", "2026-01-07T11:30:00.000Z")).toBe(v2);
    expect(JSON.parse(read(`state/programs/${v1}/meta.json`))).toEqual({
      version: v1,
      firstSeen: "2026-01-07T10:00:00.000Z",
      by: "org up",
      prompts: { "prompts/researcher.md": "files/prompts/researcher.md" },
    });
    expect(read(`state/programs/${v1}/org.yaml`)).toBe(orgYaml(1));
    expect(read(`state/programs/${v1}/files/prompts/researcher.md`)).toBe(PROMPT);
    expect(read("state/log.md")).toBe([
      `## [2026-01-07] program | ${v1} is the first program, by \`org up\``,
      "first version: researcher ×1 (printer)",
      `saved in state/programs/${v1}/ — \`org program show ${v1}\``,
      "",
      `## [2026-01-07] program | ${v2} replaces ${v1}, by a person's save, applied by hot reload`,
      "~ researcher count 1 → 2",
      "~ prompt prompts/researcher.md changed",
      `saved in state/programs/${v2}/ — \`org program show ${v2}\``,
      "",
      "",
    ].join("\n"));
    await recordProgramStop(state(), new Date("2026-01-07T12:00:00.000Z"));
    expect(
      read("state/programs/history.jsonl")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { kind: string; by: string })
        .map((event) => `${event.kind} ${event.by}`),
    ).toEqual(["use org up", "use daemon", "stop org down"]);
  });

  test("a reload that finds no version recorded (an org started before versions) " +
    "says so rather than claim the change", async () => {
    const version = await record("daemon", "2026-01-07T10:00:00.000Z");
    expect(read("state/log.md").split("\n")[0]).toBe(
      `## [2026-01-07] program | ${version} is the first program recorded (the org was already running), ` +
        `by a person's save, applied by hot reload`,
    );
  });
});

describe("org program show", () => {
  test("prints the saved org.yaml, its prompts against the files now, and what restoring it would change", async () => {
    const [v1, v2] = await twoVersions();
    const shown = org(["program", "show", v1.slice(0, 4)]);
    expect([shown.code, shown.stderr]).toEqual([0, ""]);
    expect(shown.stdout).toBe([
      `program ${v1}: first run 2026-01-07 10:00 UTC by \`org up\`; researcher ×1 (printer)`,
      `── org.yaml (state/programs/${v1}/org.yaml) ──`,
      orgYaml(1).trimEnd(),
      "── prompts ──",
      "prompts/researcher.md  2 lines; differs from the file now",
      "── against the current program ──",
      `restoring ${v1} over ${v2} would change:`,
      "  ~ researcher count 2 → 1",
      "  ~ prompt prompts/researcher.md changed",
      "",
    ].join("\n"));
    expect(org(["program", "show", v2]).stdout).toContain(
      `── against the current program ──\n${v2} is the current program\n`,
    );
  });

  test("a prompt deleted since is shown from the saved copy; org.yaml that " +
    "no longer loads is compared with the program that ran last", async () => {
    const [v1, v2] = await twoVersions();
    rmSync(join(dir, "prompts/researcher.md"));
    const shown = org(["program", "show", v1]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(
      "prompts/researcher.md  2 lines; deleted since — `org program restore` brings it back\n",
    );
    expect(shown.stdout).toContain(
      `org.yaml does not load now (org.yaml:9:25: roles.researcher.prompt file "prompts/researcher.md" ` +
        `does not exist — create it, or give its path relative to this file); ` +
        `compared with the program that ran last, ${v2}\n`,
    );
  });

  test("an unknown id, an ambiguous prefix and a version whose folder is gone: " +
    "one line naming the saved versions", async () => {
    const [v1, v2] = await twoVersions();
    const saved = [v1, v2].sort().join(", ");
    expect(org(["program", "show", "ffffffff"])).toEqual({
      code: 1,
      stdout: "",
      stderr: `org: no program version ffffffff — saved versions: ${saved}\n`,
    });
    cpSync(join(state(), "programs", v1), join(state(), "programs", "abcd0001"), { recursive: true });
    cpSync(join(state(), "programs", v1), join(state(), "programs", "abcd0002"), { recursive: true });
    expect(org(["program", "restore", "abcd"])).toEqual({
      code: 1,
      stdout: "",
      stderr: "org: abcd matches 2 versions: abcd0001, abcd0002 — give more of its digits\n",
    });
    rmSync(join(state(), "programs", "abcd0001"), { recursive: true });
    rmSync(join(state(), "programs", "abcd0002"), { recursive: true });
    rmSync(join(state(), "programs", v2), { recursive: true });
    const before = snapshotFiles();
    for (const command of ["show", "restore"]) {
      expect(org(["program", command, v2])).toEqual({
        code: 1,
        stdout: "",
        stderr: `org: program ${v2} ran here, but its saved copy state/programs/${v2}/ is gone (removed by hand?) — ` +
          `saved versions: ${v1}\n`,
      });
    }
    expect(snapshotFiles()).toBe(before);
  });
});

describe("org program restore", () => {
  test("writes the saved org.yaml and prompts back, " +
    "a deleted prompt included, when the org is not running", async () => {
    const [v1] = await twoVersions();
    rmSync(join(dir, "prompts/researcher.md"));
    expect(org(["program", "restore", v1])).toEqual({
      code: 0,
      stderr: "",
      stdout:
        `restored program ${v1}: org.yaml and 1 prompt (prompts/researcher.md)\nthe org is not running: ` +
          `\`org up\` starts it with this program\n`,
    });
    expect([read("org.yaml"), read("prompts/researcher.md")]).toEqual([orgYaml(1), PROMPT]);
    expect(org(["validate"]).code).toBe(0);
  });

  test("a saved program that no longer validates is refused at its file:line:col, and nothing is written", async () => {
    git(dir, ["branch", "exp"]);
    writeFileSync(join(dir, "org.yaml"), orgYaml(1, "exp"));
    const old = await record("org up", "2026-01-07T09:00:00.000Z", true);
    writeFileSync(join(dir, "org.yaml"), orgYaml(3));
    await record("org reload", "2026-01-07T10:00:00.000Z");
    git(dir, ["branch", "-D", "exp"]);
    rmSync(join(dir, "prompts/researcher.md"));
    const before = snapshotFiles();
    expect(org(["program", "restore", old])).toEqual({
      code: 1,
      stdout: "",
      stderr:
        `state/programs/${old}/org.yaml:4:7: base "exp" does not name a commit in repo "." — ` +
        `name an existing branch, tag or commit (see \`git -C . branch\`)\n` +
        `program ${old} no longer validates: nothing was restored; org.yaml, ` +
        `the prompts and the running org are as they were\n`,
    });
    expect(snapshotFiles()).toBe(before);
  });

  test("a saved copy missing a prompt is refused, naming the file, and nothing is written", async () => {
    const [v1] = await twoVersions();
    rmSync(join(state(), "programs", v1, "files/prompts/researcher.md"));
    const before = snapshotFiles();
    expect(org(["program", "restore", v1])).toEqual({
      code: 1,
      stdout: "",
      stderr:
        `state/programs/${v1}/files/prompts/researcher.md: the saved copy of prompts/researcher.md is missing — ` +
          `this version cannot be restored as it ran; pick another one (\`org history\`)\n` +
        `program ${v1} no longer validates: nothing was restored; org.yaml, ` +
        `the prompts and the running org are as they were\n`,
    });
    expect(snapshotFiles()).toBe(before);
  });
});

describe("org history", () => {
  test("rows from before program versions are unversioned; --json has every figure", async () => {
    const [v1, v2] = await twoVersions();
    const header = "commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime";
    writeFileSync(join(state(), "results.tsv"), [
      `${header}\tlines_added\tlines_removed`,
      "aaaaaaa\t1.000000\t0.0\tkeep\tbaseline\tresearcher-1\tcpu\t360.0\t2026-01-07T09:00:00.000Z\t0\t0",
      `${header}\tprogram\tlines_added\tlines_removed`,
      `bbbbbbb\t0.900000\t0.0\tkeep\twider\tresearcher-1\tcpu\t720.0\t2026-01-07T10:30:00.000Z\t${v1}\t2\t0`,
      `ccccccc\t0.000000\t0.0\tcrash\tdeeper\tresearcher-2\tcpu\t36.0\t2026-01-07T11:30:00.000Z\t${v2}\t9\t0`,
      "",
    ].join("\n"));
    const text = org(["history"]);
    expect(text.code).toBe(0);
    const lines = text.stdout.trimEnd().split("\n");
    expect(lines.slice(1, 4).map((line) => line.split(/\s{2,}/))).toEqual([
      ["unversioned", "2026-01-07 08:54", "2026-01-07 09:00", "1", "0", "0", "0", "-→1", "0.10", "-", "-", "-"],
      [v1, "2026-01-07 10:00", "2026-01-07 11:00", "1", "1", "1", "0", "1→0.9", "0.20", "-", "-", "`org up`"],
      [
        v2,
        "2026-01-07 11:00",
        "running",
        "2",
        "1",
        "0",
        "1",
        "0.9=",
        "0.01",
        "-",
        "-",
        "a person's save, applied by hot reload",
      ],
    ]);
    const json = JSON.parse(org(["history", "--json"]).stdout) as {
      metric: string;
      attribution: string;
      programs: { program: string; experiments: number; gpuHours: number; usage: { replies: number } }[];
    };
    expect(json.metric).toBe("val_bpb");
    expect(json.attribution).toContain("tokens and $: every agent's replies while the program ran");
    expect(json.programs.map((line) => [line.program, line.experiments, line.gpuHours, line.usage.replies])).toEqual([
      ["unversioned", 0, 0.1, 0],
      [v1, 1, 0.2, 0],
      [v2, 1, 0.01, 0],
    ]);
  });
});
