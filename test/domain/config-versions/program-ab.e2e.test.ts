// `org up --ab` end to end on tmux: both halves up and tagged,
// compare on them, edits refused, a second up refused, down ends both.
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runOrg } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { createTestOrg, printerOrgYaml, teardownOrg, type TestOrg, tmux } from "../../helpers/test-org/index.js";

let org: TestOrg | undefined;
afterEach(() => {
  teardownOrg(org);
  org = undefined;
});

describe("org up --ab", () => {
  test("runs both programs side by side, each agent tagged; "
    + "edits and a second up are refused; org down ends both", async () => {
    org = createTestOrg({ yaml: printerOrgYaml(1) });
    const { dir, name, socket } = org;
    const state = join(dir, "state");
    writeFileSync(join(dir, "other.yaml"), printerOrgYaml(2)(name));
    const up = runOrg(["up", "--no-attach", "--ab", "other.yaml"], { cwd: dir });
    expect(up.code, up.stderr).toBe(0);
    const abLine = new RegExp(String.raw`^A\/B run: A ([0-9a-f]{8}) \(org\.yaml: researcher-1\) `
      + String.raw`vs B ([0-9a-f]{8}) \(other\.yaml: b-researcher-1, b-researcher-2\)$`, "m");
    const [, va, vb] = abLine.exec(up.stdout) ?? [];
    expect(vb, up.stdout).toBeDefined();
    const panes = () => tmux(socket, ["list-panes", "-s", "-t", `org-${name}`, "-F", "#{pane_id} #{@org_agent}"]).out;
    expect(panes().split("\n").map((line) => line.split(" ")[1]).filter(Boolean).sort()).toEqual([
      "b-researcher-1", "b-researcher-2", "researcher-1",
    ]);

    const status = JSON.parse(runOrg(["status", "--json"], { cwd: dir }).stdout) as {
      ab: { a: { version: string }; b: { version: string } };
      agents: { name: string; role: string; program: string }[];
    };
    expect([status.ab.a.version, status.ab.b.version]).toEqual([va, vb]);
    expect(status.agents.map((agent) => [agent.name, agent.role, agent.program])).toEqual([
      ["researcher-1", "researcher", va], ["b-researcher-1", "b-researcher", vb],
      ["b-researcher-2", "b-researcher", vb],
    ]);
    expect(runOrg(["status"], { cwd: dir }).stdout.split("\n")[1]).toMatch(
      new RegExp(`^A/B run since \\S+: A ${va} \\(org\\.yaml, 1 agents\\) vs B ${vb} \\(other\\.yaml, 2 agents, `
        + `prefixed b-\\) — \`org compare\` compares them$`),
    );
    const compare = runOrg(["compare"], { cwd: dir });
    expect([compare.code, compare.stdout.split("\n")[0]]).toEqual([
      0, expect.stringMatching(new RegExp(`^A/B run since .*: A ${va} .* vs B ${vb} `)),
    ]);

    // B's agents are agents of the running org to every messaging command, not only to the verifier.
    const sent = runOrg(["send", "b-researcher-2", "look at LR"], { cwd: dir });
    expect([sent.code, sent.stderr]).toEqual([0, ""]);
    expect(
      readdirSync(join(state, "agents", "b-researcher-2", "inbox")).map((file) =>
        readFileSync(join(state, "agents", "b-researcher-2", "inbox", file), "utf8")).join(""),
    ).toContain("look at LR");

    // A second up, A/B or not, changes nothing.
    const record = readFileSync(join(state, "org.json"), "utf8");
    const ab = readFileSync(join(state, "ab.json"), "utf8");
    const before = panes();
    expect(runOrg(["up", "--no-attach", "--ab", "other.yaml"], { cwd: dir })).toEqual({
      code: 1, stdout: "",
      stderr: `--ab other.yaml: org ${name} is already running — an A/B run starts both halves together on the same `
        + `hours: \`org down\` first, then \`org up --ab other.yaml\`\n`,
    });
    expect([
      panes(), readFileSync(join(state, "org.json"), "utf8"), readFileSync(join(state, "ab.json"), "utf8"),
    ]).toEqual([before, record, ab]);

    // A save of org.yaml during the run is refused by hot reload: both halves run as they started.
    writeFileSync(join(dir, "org.yaml"), printerOrgYaml(3)(name));
    const refused = await pollUntil(() => {
      const text = existsSync(join(state, "reload.json")) ? readFileSync(join(state, "reload.json"), "utf8") : "";
      return text.includes("rejected") && text;
    }, { what: "the save refused", timeoutMs: 30_000 });
    expect(refused).toContain(`an A/B run is on (A ${va} from org.yaml, B ${vb} from other.yaml): `
      + `edits of either program are not applied while both are measured`);
    expect(panes()).toBe(before);
    expect(readFileSync(join(state, "org.json"), "utf8")).toBe(record);

    expect(runOrg(["down"], { cwd: dir }).code).toBe(0);
    expect(existsSync(join(state, "ab.json"))).toBe(false);
  });
});
