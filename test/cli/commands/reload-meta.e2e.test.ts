import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runOrg } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { bin, createTestOrg, teardownOrg, type TestOrg, tmux } from "../../helpers/test-org/index.js";

const orgYaml = (name: string) => `name: ${name}
repo: .
base: main
gpus: none
runtimes:
  printer: { command: ["${bin("print-env-sleep")}"] }
  idle: { command: ["${bin("forever")}"] }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: printer, count: 1, edits: [train.py] }
  meta: { prompt: prompts/meta.md, runtime: idle, edits: [org.yaml, "prompts/**"] }
reload: { min_interval: 60s }
`;

let org: TestOrg | undefined;
afterEach(() => {
  teardownOrg(org);
  org = undefined;
});

describe("a meta role reprograms the org", () => {
  test("its proposals are validated, reconciled, rate-limited and " +
    "logged with their diff; a breaking one changes nothing", async () => {
    org = createTestOrg({
      yaml: orgYaml,
      files: { "prompts/meta.md": "# Meta {{agent}}\nImprove how the researchers search.\n" },
    });
    const { dir, name, socket } = org;
    const state = join(dir, "state");
    const copy = join(state, "agents/meta-1/proposal");
    expect(runOrg(["up"], { cwd: dir }).code).toBe(0);
    const panes = () =>
      tmux(socket, [
        "list-panes",
        "-s",
        "-t",
        `org-${name}`,
        "-F",
        "#{pane_id} #{pane_pid} #{@org_agent} #{@org_status}",
      ])
        .out.trim()
        .split("\n");
    const asMeta = (agent = "meta-1") => {
      const result = runOrg(["reload"], {
        cwd: join(dir, "worktrees", agent),
        env: { ORG_AGENT: agent, ORG_ROOT: dir },
      });
      return [result.code, result.stdout.trim(), result.stderr.trim()];
    };
    const log = () => readFileSync(join(state, "log.md"), "utf8");
    const orgFiles = () => [
      readFileSync(join(dir, "org.yaml"), "utf8"),
      readFileSync(join(dir, "prompts/researcher.md"), "utf8"),
    ];
    const before = { panes: panes(), files: orgFiles() };

    expect(asMeta()).toEqual([
      0,
      `your copy of the org's config is in ${copy}: org.yaml, prompts/meta.md, prompts/researcher.md — ` +
        `edit it there, then run \`org reload\` again`,
      "",
    ]);
    expect(readFileSync(join(copy, "org.yaml"), "utf8")).toBe(orgYaml(name));

    const copyYaml = join(copy, "org.yaml");
    writeFileSync(copyYaml, orgYaml(name).replace("runtime: printer, count: 1", "runtime: nope, count: 1"));
    const broken =
      'org.yaml:9:57: roles.researcher.runtime names "nope", which is neither defined under runtimes nor a preset — ' +
        'name a preset (claude, codex, gemini or opencode) or a defined runtime (printer, idle), ' +
        'or define it under runtimes, e.g. runtimes: {nope: {command: [nope, "{kickoff}"]}}';
    expect(asMeta()).toEqual([1, "", `${broken}\nnothing changed: the org runs as before; this attempt is in log.md`]);
    expect({ panes: panes(), files: orgFiles() }).toEqual(before);
    expect(log()).toContain(
      [
        "reload-rejected | meta edit by meta-1: rejected; nothing changed",
        broken,
        "",
        "```diff",
        "--- org/org.yaml",
        "+++ proposed/org.yaml",
      ].join("\n"),
    );
    expect(log()).toContain(
      "\n-  researcher: { prompt: prompts/researcher.md, runtime: printer, count: 1, edits: " +
        "[train.py] }\n+  researcher: { prompt: prompts/researcher.md, runtime: nope, count: 1, edits: [train.py] }\n",
    );

    writeFileSync(
      copyYaml,
      `${orgYaml(name)}verify: { command: [sh, train.sh], metric: { name: loss, pattern: '^loss: (.*)' } }\n`,
    );
    expect(asMeta()).toEqual([
      1,
      "",
      "the edit changes verify, the immutable verifier — only a person changes how experiments are judged; " +
        "undo that part of your copy\nnothing changed: the org runs as before; this attempt is in log.md",
    ]);
    expect({ panes: panes(), files: orgFiles() }).toEqual(before);

    writeFileSync(copyYaml, orgYaml(name).replace("count: 1", "count: 2"));
    appendFileSync(join(copy, "prompts/researcher.md"), "Try one idea at a time.\n");
    expect(asMeta()).toEqual([0, [
      "applied org.yaml, prompts/researcher.md to the org:",
      "  ~ restart researcher-1 (prompt changed)",
      "  + add researcher-2 (roles.researcher.count 1 → 2): worktree, pane",
      "  # retile the grid: 4 panes (panes 1 added)",
    ].join("\n"), ""]);
    expect(orgFiles()).toEqual([
      readFileSync(copyYaml, "utf8"),
      readFileSync(join(copy, "prompts/researcher.md"), "utf8"),
    ]);
    await pollUntil(() => panes().some((line) => line.endsWith("researcher-2 running")), {
      what: "researcher-2 running",
    });
    expect(log()).toMatch(
      new RegExp(
        /^## \[\d{4}-\d\d-\d\d\] reload \| 3 actions: ~researcher-1 \+researcher-2 \(meta edit by meta-1\)\n/.source +
        /~ restart researcher-1 \(prompt changed\)\n/.source,
        "m",
      ),
    );
    expect(log()).toContain("\n--- org/prompts/researcher.md\n+++ proposed/prompts/researcher.md\n");
    expect(log()).toContain("\n+Try one idea at a time.\n");
    // The new program version names the meta role's proposal as what changed it.
    expect(log()).toMatch(
      new RegExp(
        /^## \[\d{4}-\d\d-\d\d\] program \| [0-9a-f]{8} replaces [0-9a-f]{8}, /.source +
        /by the meta role's proposal \(meta-1\)\n/.source +
        /~ researcher count 1 → 2\n~ prompt prompts\/researcher\.md changed\n/.source,
        "m",
      ),
    );

    writeFileSync(copyYaml, orgYaml(name).replace("count: 1", "count: 3"));
    const [code, out, err] = asMeta();
    expect([code, out]).toEqual([1, ""]);
    expect(err).toMatch(
      new RegExp(
        /^rate-limited: the last meta edit was applied [\d.]+s ago and reload.min_interval is 1m /.source +
        /— run `org reload` again in [\d.]+s\nnothing changed/.source,
      ),
    );
    expect(panes()).toHaveLength(4);

    // A person edits the org meanwhile: the meta agent's copy is stale, so it is refreshed rather than applied over
    // them.
    appendFileSync(join(dir, "org.yaml"), "# a person was here\n");
    expect(asMeta()).toEqual([
      1,
      "",
      "the org's config changed since your copy was made (a person or another meta agent edited it) — " +
        "your copy was refreshed from the org: redo your edit there and run `org reload` again\nnothing changed: " +
        "the org runs as before; this attempt is in log.md",
    ]);
    expect(readFileSync(copyYaml, "utf8")).toBe(readFileSync(join(dir, "org.yaml"), "utf8"));

    expect(asMeta("researcher-1")).toEqual([
      1,
      "",
      `researcher-1's role researcher may not change the org: its edits [train.py] name neither org.yaml nor a ` +
        `prompt — a meta role lists them, e.g. edits: [org.yaml, "prompts/**"]\nnothing changed: ` +
        `the org runs as before; this attempt is in log.md`,
    ]);
    expect(panes()).toHaveLength(4);
  }, 120_000);
});
