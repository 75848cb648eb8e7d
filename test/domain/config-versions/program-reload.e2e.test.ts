import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runOrg } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { git } from "../../helpers/temp-repo.js";
import { createTestOrg, printerOrgYaml, teardownOrg, type TestOrg, tmux } from "../../helpers/test-org/index.js";

const orgYaml = (count: number) => printerOrgYaml(count);

let org: TestOrg | undefined;
afterEach(() => {
  teardownOrg(org);
  org = undefined;
});

/** The `program` entries of log.md: heading and body, each a string. */
function programEntries(state: string): string[] {
  return readFileSync(join(state, "log.md"), "utf8").split(/\n(?=## \[)/).filter((entry) =>
    / program \| /.test(entry.split("\n")[0]!)).map((entry) => entry.trim());
}

describe("program versions of a running org", () => {
  test("org up records the first, a save the next, a restore brings one back live; "
    + "a restore that cannot apply changes nothing", async () => {
    org = createTestOrg({ yaml: orgYaml(1) });
    const { dir, name, socket } = org;
    const state = join(dir, "state");
    const panes = () =>
      tmux(socket, ["list-panes", "-s", "-t", `org-${name}`, "-F", "#{pane_id} #{pane_pid} #{@org_agent}"]).out;
    expect(runOrg(["up"], { cwd: dir }).code).toBe(0);
    const [first] = programEntries(state);
    const v1 = /program \| ([0-9a-f]{8}) is the first program, by `org up`/.exec(first ?? "")?.[1];
    expect(v1, first).toBeDefined();

    writeFileSync(join(dir, "org.yaml"), orgYaml(2)(name));
    const saved = await pollUntil(() => programEntries(state)[1], {
      what: "the save's program entry",
      timeoutMs: 15_000,
    });
    const v2 = /^## \[[\d-]+\] program \| ([0-9a-f]{8}) replaces /.exec(saved)?.[1] ?? "";
    expect(saved).toBe(`## [${saved.slice(4, 14)}] program | ${v2} replaces ${v1}, by a person's save, `
      + `applied by hot reload\n~ researcher count 1 → 2\nsaved in state/programs/${v2}/ — \`org program show ${v2}\``);

    // A saved program on another base: valid on its own, but a running org cannot change base, so nothing changes.
    git(dir, ["branch", "exp"]);
    cpSync(join(state, "programs", v1!), join(state, "programs", "0bad0bad"), { recursive: true });
    writeFileSync(join(state, "programs/0bad0bad/org.yaml"), orgYaml(1)(name).replace("base: main", "base: exp"));
    const before = [
      panes(), readFileSync(join(dir, "org.yaml"), "utf8"), readFileSync(join(state, "org.json"), "utf8"),
    ];
    expect(runOrg(["program", "restore", "0bad"], { cwd: dir })).toEqual({
      code: 1, stdout: "",
      stderr: `state/programs/0bad0bad/org.yaml:3:7: base changed from "main" to "exp" while the org runs; `
        + `every branch and baseline starts from it — restart the org: org down && org up\n`
        + `nothing changed: the org runs as before\n`,
    });
    expect([
      panes(), readFileSync(join(dir, "org.yaml"), "utf8"), readFileSync(join(state, "org.json"), "utf8"),
    ]).toEqual(before);

    const restored = runOrg(["program", "restore", v1!], { cwd: dir });
    expect([restored.code, restored.stderr]).toEqual([0, ""]);
    expect(restored.stdout).toMatch(
      new RegExp(/^reloaded: 2 actions applied\n {2}- remove researcher-2 .*\n {2}# retile the grid: 2 panes /.source
        + /.*\nrestored program [0-9a-f]{8}\n$/.source),
    );
    expect(readFileSync(join(dir, "org.yaml"), "utf8")).toBe(orgYaml(1)(name));
    expect(panes().trim().split("\n")).toHaveLength(2);
    // The daemon sees the files the restore wrote as a save of the same program: no entry of its own.
    expect(runOrg(["reload"], { cwd: dir }).stdout).toBe("nothing to do: the running org matches org.yaml\n");
    const entries = programEntries(state);
    expect(entries).toHaveLength(3);
    expect(entries[2]).toMatch(
      new RegExp(`program \\| ${v1} replaces ${v2}, by \`org program restore ${v1}\`\\n~ researcher count 2 → 1\\n`),
    );

    const history = runOrg(["history"], { cwd: dir }).stdout.split("\n").slice(1, 3)
      .map((line) => line.split(/\s{2,}/));
    expect(history.map((cells) => [cells[0], cells[2], cells[3], cells.at(-1)])).toEqual([
      [v1, "running", "1", "`org up` (ran 2 times)"],
      [v2, expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d$/), "2", "a person's save, applied by hot reload"],
    ]);
    expect(runOrg(["down"], { cwd: dir }).code).toBe(0);
    const written = readFileSync(join(state, "programs/history.jsonl"), "utf8").trim().split("\n");
    expect(written.map((line) => (JSON.parse(line) as { by: string }).by))
      .toEqual(["org up", "daemon", `org program restore ${v1}`, "org down"]);
  });
});
