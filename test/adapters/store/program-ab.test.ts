import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { readAndLoadConfig } from "../../../src/adapters/store/config-file.js";
import { readProgramContent } from "../../../src/adapters/store/program-record.js";
import { loadAbPrograms } from "../../../src/adapters/store/ab-run.js";
import { planLeases } from "../../../src/domain/reconcile/index.js";
import { runOrg } from "../../helpers/org-cli.js";
import { snapshotDir, expectRefusedIn } from "../../helpers/state-snapshot.js";
import { createRepo, git, removeDir } from "../../helpers/temp-repo.js";

// Program A: one researcher; B differs only where a test says so.
const orgYaml = (
  opts: { count?: number; repo?: string; base?: string; metric?: string; command?: string } = {},
) => `name: toy
repo: ${opts.repo ?? "."}
base: ${opts.base ?? "main"}
gpus: none
runtimes:
  printer: { command: [sleep, "1000"] }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: printer, count: ${opts.count ?? 1} }
verify:
  command: ${opts.command ?? "[python3, train.py]"}
  metric: { name: ${opts.metric ?? "val_bpb"}, pattern: '^val_bpb:\\s*([0-9.]+)', goal: minimize }
`;

let dir: string;
beforeEach(() => {
  dir = createRepo({
    "train.py": "print('val_bpb: 1.0')\n",
    "org.yaml": orgYaml(),
    "prompts/researcher.md": "# Researcher\nYou are {{agent}}.\n",
  });
});
const others: string[] = [];
afterEach(() => {
  for (const other of [dir, ...others.splice(0)]) removeDir(other);
});

/**
 * `org up --ab other.yaml` with other.yaml as given: refused with
 * exactly `stderr`, and nothing in the org's folder changed.
 */
function expectRefused(other: string | undefined, stderr: string, file = "other.yaml"): void {
  if (other !== undefined) writeFileSync(join(dir, file), other);
  const before = snapshotDir(dir);
  expectRefusedIn(dir, runOrg(["up", "--no-attach", "--ab", file], { cwd: dir }), stderr, before);
}

describe("org up --ab: bad input is refused before anything is created", () => {
  test("a file that does not exist", () => {
    expectRefused(
      undefined,
      `--ab nope.yaml: not found in ${dir} — give the path of program B's org.yaml, relative to the org's folder`,
      "nope.yaml",
    );
  });

  test("a file that does not validate: its own file:line:col", () => {
    expectRefused(
      orgYaml({ count: 0 }),
      "other.yaml:8:73: roles.researcher.count must be at least 1, got 0 — write 1 or more",
    );
  });

  test("org.yaml itself, or a copy of it: the same program", async () => {
    expectRefused(
      undefined,
      "--ab org.yaml: is org.yaml itself — give the other program's file (a second org.yaml, e.g. other.yaml)",
      "org.yaml",
    );
    const read = await readAndLoadConfig({ cwd: dir });
    const { version } = await readProgramContent(
      "loaded" in read ? read.loaded : expect.fail(read.problems.join("\n")),
    );
    expectRefused(
      `# a copy\n${orgYaml()}`,
      `--ab other.yaml: is the same program as org.yaml (version ${version}) — ` +
        `an A/B run compares two different programs`,
    );
  });

  test("another repo: refused with why", () => {
    const elsewhere = createRepo({ "train.py": "print('val_bpb: 2.0')\n" });
    others.push(elsewhere);
    expectRefused(
      orgYaml({ count: 2, repo: elsewhere }),
      `other.yaml:2:7: names the repo ${elsewhere}, but org.yaml runs ${dir} — ` +
        `an A/B run compares two programs on the same task — make it the same as org.yaml's, ` +
        `or run the other org on its own`,
    );
  });

  test("another base: refused with why", () => {
    git(dir, ["checkout", "-q", "-b", "exp"]);
    writeFileSync(join(dir, "train.py"), "print('val_bpb: 0.5')\n");
    git(dir, ["commit", "-qam", "exp"]);
    git(dir, ["checkout", "-q", "main"]);
    const [main, exp] = [
      git(dir, ["rev-parse", "--short=7", "main"]).trim(),
      git(dir, ["rev-parse", "--short=7", "exp"]).trim(),
    ];
    expectRefused(
      orgYaml({ count: 2, base: "exp" }),
      `other.yaml:3:7: base exp is ${exp}, but org.yaml's base main is ${main} — ` +
        `an A/B run compares two programs on the same task — make it the same as org.yaml's, ` +
        `or run the other org on its own`,
    );
  });

  test("another verify metric or command: one verifier judges both halves", () => {
    const fix =
      "an A/B run compares two programs on the same task — make it the same as org.yaml's, " +
        "or run the other org on its own";
    expectRefused(
      orgYaml({ count: 2, metric: "val_loss" }),
      `other.yaml:11:11: the metric differs from org.yaml's ` +
        `({"name":"val_loss","pattern":"^val_bpb:\\\\s*([0-9.]+)","goal":"minimize"} here, ` +
        `{"name":"val_bpb","pattern":"^val_bpb:\\\\s*([0-9.]+)","goal":"minimize"} there): ` +
        `one verifier judges both halves — ${fix}`,
    );
    expectRefused(
      orgYaml({ count: 2, command: "[python3, -O, train.py]" }),
      `other.yaml:10:12: the verify command differs from org.yaml's (["python3","-O","train.py"] here, ` +
        `["python3","train.py"] there): one verifier judges both halves — ${fix}`,
    );
  });

  test("a role of B whose b- name org.yaml already has", () => {
    writeFileSync(
      join(dir, "org.yaml"),
      orgYaml().replace("roles:\n", "roles:\n  b-researcher: { prompt: prompts/researcher.md, runtime: printer }\n"),
    );
    expectRefused(
      orgYaml({ count: 2 }),
      "other.yaml:8:3: role researcher becomes b-researcher in the A/B run, " +
        "a role the current org.yaml already has — rename b-researcher in org.yaml or researcher here",
    );
  });
});

describe("org up --ab: the GPUs split evenly between the halves", () => {
  const gpus = [0, 1, 2, 3].map((index) => ({
    index,
    uuid: `GPU-${index}`,
    name: "H100",
    memoryUsedMb: 0,
    memoryTotalMb: 81_000,
  }));
  const withGpus = (count: number) =>
    orgYaml({ count })
      .replace("gpus: none", "gpus: auto")
      .replace(/count: (\d+) }/, "count: $1, gpu: true }");

  test("A's agents lease from the first half, B's from the second; " +
    "a half that needs more than its half is refused", async () => {
    writeFileSync(join(dir, "org.yaml"), withGpus(1));
    writeFileSync(join(dir, "other.yaml"), withGpus(2));
    const read = await loadAbPrograms(dir, "other.yaml");
    if ("problems" in read) return expect.fail(read.problems.join("\n"));
    expect(planLeases(read.loaded, gpus, new Map())).toMatchObject({
      ok: true,
      leases: new Map([
        ["researcher-1", 0],
        ["b-researcher-1", 2],
        ["b-researcher-2", 3],
      ]),
    });

    writeFileSync(join(dir, "other.yaml"), withGpus(3));
    const more = await loadAbPrograms(dir, "other.yaml");
    if ("problems" in more) return expect.fail(more.problems.join("\n"));
    expect(planLeases(more.loaded, gpus, new Map())).toEqual({
      ok: false,
      problems: [
        expect.stringContaining(
          "A/B run, each half gets half the free GPUs: 3 agents need a GPU each but only 2 GPUs are free (2, 3)",
        ),
      ],
    });
  });
});

describe("org up --ab: B's runtimes", () => {
  test("one A lacks joins under its own name, " +
    "one A has differently under a b- name, the same one is shared", async () => {
    const other = orgYaml({ count: 2 })
      .replace("runtimes:\n", "runtimes:\n  boss: { command: [sleep, \"2000\"] }\n")
      .replace('printer: { command: [sleep, "1000"] }', 'printer: { command: [sleep, "3000"] }')
      .replace("roles:\n", "roles:\n  chief: { prompt: prompts/researcher.md, runtime: boss }\n");
    writeFileSync(join(dir, "other.yaml"), other);
    const read = await loadAbPrograms(dir, "other.yaml");
    if ("problems" in read) return expect.fail(read.problems.join("\n"));
    const { runtimes, roles } = read.loaded.config;
    expect([runtimes.boss?.command, runtimes.printer?.command, runtimes["b-printer"]?.command]).toEqual([
      ["sleep", "2000"],
      ["sleep", "1000"],
      ["sleep", "3000"],
    ]);
    expect([roles["b-chief"]?.runtime, roles["b-researcher"]?.runtime, roles.researcher?.runtime]).toEqual([
      "boss",
      "b-printer",
      "printer",
    ]);
  });
});
