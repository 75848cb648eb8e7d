import { describe, expect, it } from "vitest";
import { DIR, SHA, VALID, fakeProbe, load, problemsOf } from "../../fixtures/configs/fake-probe.js";

describe("loadConfig: a valid org.yaml", () => {
  it("fills in every default and resolves repo and base", async () => {
    const result = await load(`name: demo\n${VALID}`);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { config, repoDir, baseCommit, file, dir } = result.loaded;
    expect({ file, dir, repoDir, baseCommit }).toEqual({ file: "org.yaml", dir: DIR, repoDir: DIR, baseCommit: SHA });
    expect(config).toEqual({
      backend: "local",
      name: "demo",
      repo: ".",
      base: "main",
      gpus: "auto",
      share: [],
      runtimes: {
        mybot: {
          command: ["mybot", "{prompt_file}"], restart: "on-failure", env: {},
          nudge: "Keep going: continue your research loop. Do not stop or ask for confirmation.", nudge_after: "10m",
          nudges_per_hour: 3, answer_trust: false,
        },
      },
      roles: {
        researcher: {
          prompt: "prompts/researcher.md",
          runtime: "mybot",
          count: 1,
          gpu: false,
          edits: [],
          kickoff: "Read your system prompt and begin. Loop forever; never ask to stop.",
          talks_to: [],
        },
      },
      supervisor: { backoff: "1s", max_backoff: "30s", max_restarts: 10, healthy_after: "60s" },
    });
  });

  it("accepts names with capitals, a builtin runtime, share maps and a full verify section", async () => {
    const text = `name: MyOrg
share: [.venv, {path: data, mode: copy}]
runtimes:
  Hill_1: {builtin: hillclimb}
roles:
  researcher: {prompt: prompts/researcher.md, runtime: Hill_1, count: 3, gpu: true}
verify:
  command: [python, train.py]
  protected: [prepare.py]
  metric: {name: val_bpb, pattern: '^val_bpb:\\s*([0-9.]+)'}
  memory: {pattern: '^peak_vram_mb:\\s*(?<mb>[0-9.]+)'}
`;
    expect(await problemsOf(text)).toEqual([]);
  });
});

describe("loadConfig: schema problems as human lines", () => {
  it.each([
    [
      "a word for a number",
      `${VALID}    count: two\n`,
      ['org.yaml:8:12: roles.researcher.count must be a whole number, got "two" — write a number such as 2'],
    ],
    [
      "a fraction for a whole number",
      `${VALID}    count: 1.5\n`,
      ["org.yaml:8:12: roles.researcher.count must be a whole number, got 1.5 — write a number such as 2"],
    ],
    [
      "a count below its minimum",
      `${VALID}    count: 0\n`,
      ["org.yaml:8:12: roles.researcher.count must be at least 1, got 0 — write 1 or more"],
    ],
    [
      "a count above its maximum",
      `${VALID}    count: 300\n`,
      ["org.yaml:8:12: roles.researcher.count must be at most 256, got 300 — write 256 or less"],
    ],
    [
      "yes for a boolean",
      `${VALID}    gpu: yes\n`,
      ['org.yaml:8:10: roles.researcher.gpu must be true or false, got "yes" — write true or false'],
    ],
    [
      "a string for a list",
      `${VALID}    edits: train.py\n`,
      ['org.yaml:8:12: roles.researcher.edits must be a list, got "train.py" — make it a list: [train.py]'],
    ],
    [
      "a number for a string",
      `${VALID}base: 2024\n`,
      ['org.yaml:8:7: base must be a string, got 2024 — quote it: "2024"'],
    ],
    [
      "a quoted number",
      `${VALID}    count: "2"\n`,
      ['org.yaml:8:12: roles.researcher.count must be a whole number, got "2" — remove the quotes: 2'],
    ],
    ["a shell string for an argv list", VALID.replace('[mybot, "{prompt_file}"]', 'mybot --fast "{prompt_file}"'), [
      'org.yaml:3:14: runtimes.mybot.command must be a list, got "mybot --fast \\"{prompt_file}\\"" — make it a list: '
        + '[mybot, --fast, "{prompt_file}"]',
    ]],
    [
      "a string for a map",
      `${VALID.replace("  mybot:\n", "  mybot:\n    env: DEBUG=1\n")}`,
      ['org.yaml:3:10: runtimes.mybot.env must be a map, got "DEBUG=1" — write e.g. {PYTHONUNBUFFERED: "1"}'],
    ],
  ])("%s", async (_name, text, expected) => {
    expect(await problemsOf(text)).toEqual(expected);
  });

  it("a misspelled enum value gets a did-you-mean", async () => {
    const text = VALID.replace('"{prompt_file}"]', '"{prompt_file}"]\n    restart: on-falure');
    expect(await problemsOf(text)).toEqual([
      'org.yaml:4:14: runtimes.mybot.restart must be one of always, on-failure, never, got "on-falure" — '
        + 'did you mean "on-failure"?',
    ]);
  });

  it("an enum value far from every option lists them", async () => {
    const text = VALID.replace('"{prompt_file}"]', '"{prompt_file}"]\n    restart: sometimes');
    expect(await problemsOf(text)).toEqual([
      'org.yaml:4:14: runtimes.mybot.restart must be one of always, on-failure, never, got "sometimes" — '
        + 'write always, on-failure or never',
    ]);
  });

  it("a missing required key points at the map that lacks it", async () => {
    const text = VALID.replace("    runtime: mybot\n", "");
    expect(await problemsOf(text)).toEqual([
      'org.yaml:6:5: roles.researcher is missing required key "runtime" — add runtime: claude',
    ]);
  });

  it("a key with no value points at the key", async () => {
    expect(await problemsOf(`${VALID}verify:\n`)).toEqual([
      "org.yaml:8:1: verify has no value — indent its keys below it: command, judge, gates, protected, metric, memory, "
        + "timeout, parallel, gpus, queue_per_agent, repeats, keep, budgets, simplicity, ledger, stack",
    ]);
  });

  it("no roles key at all", async () => {
    expect(await problemsOf("name: demo\n")).toEqual([
      'org.yaml:1:1: missing required key "roles" — add roles: {researcher: {prompt: prompts/researcher.md, '
        + 'runtime: claude, count: 2}}',
    ]);
  });

  it("gpus that is neither auto, none nor a list", async () => {
    expect(await problemsOf(`${VALID}gpus: some\n`)).toEqual([
      'org.yaml:8:7: gpus must be auto, none, or a list of GPU indices such as [0, 1], got "some" — write e.g. auto',
    ]);
  });

  it("a negative GPU index", async () => {
    expect(await problemsOf(`${VALID}gpus: [0, -1]\n`)).toEqual([
      "org.yaml:8:11: gpus[1] must be at least 0, got -1 — write 0 or more",
    ]);
  });

  it("a duration that is not one", async () => {
    expect(await problemsOf(`${VALID}supervisor:\n  backoff: 1 minute\n`)).toEqual([
      'org.yaml:9:12: supervisor.backoff must be a number of seconds or a duration such as 90s, 10m or 1h, '
        + 'got "1 minute" — write e.g. 1s',
    ]);
  });

  it("share entries: a bad mode, a number, a misspelled key", async () => {
    expect(await problemsOf(`${VALID}share:\n  - {path: data, mode: lnk}\n  - 3\n  - {pth: data}\n`)).toEqual([
      'org.yaml:9:24: share[0].mode must be one of link, copy, got "lnk" — did you mean "link"?',
      "org.yaml:10:5: share[1] must be a path such as .venv, or a map with path and mode, got 3 — write e.g. .venv",
      'org.yaml:11:6: unknown key "pth" in share[2] — did you mean "path"?',
    ]);
  });

  it("an empty verify command and a metric name that is not an identifier", async () => {
    const text = `${VALID}verify:\n  command: []\n  metric: {name: val-bpb, pattern: 'x: (\\d+)'}\n`;
    expect(await problemsOf(text)).toEqual([
      "org.yaml:9:12: verify.command must not be empty — write e.g. [python, train.py]",
      `org.yaml:10:18: verify.metric.name must be an identifier: letters, digits and '_', not starting with a digit, `
        + `got "val-bpb" — write e.g. val_bpb`,
    ]);
  });

  it("an empty file", async () => {
    expect(await problemsOf("# nothing yet\n")).toEqual([
      "org.yaml:1:1: the file is empty — run `org init` for a commented starter, "
        + "or define roles: with at least one role",
    ]);
  });

  it("a list at the top level", async () => {
    expect(await problemsOf("- roles\n")).toEqual([
      "org.yaml:1:1: the file must be a map of settings such as name, repo and roles, got a list — "
        + "write one key: value per line, starting with roles:",
    ]);
  });
});

describe("loadConfig: everything at once", () => {
  it("reports schema and rule problems together, in document order", async () => {
    const text = `nme: demo
runtimes:
  mybot:
    command: [mybot, "{promt_file}"]
roles:
  researcher:
    prompt: prompts/missing.md
    runtime: mybt
    count: two
gpus: some
`;
    expect(await problemsOf(text)).toEqual([
      'org.yaml:1:1: unknown key "nme" — did you mean "name"?',
      'org.yaml:4:22: runtimes.mybot.command[1] is an unknown placeholder "{promt_file}" — '
        + 'did you mean "{prompt_file}"?',
      'org.yaml:7:13: roles.researcher.prompt file "prompts/missing.md" does not exist — '
        + 'create it, or give its path relative to this file',
      'org.yaml:8:14: roles.researcher.runtime names "mybt", which is neither defined under runtimes nor a '
        + 'preset — did you mean "mybot"?',
      'org.yaml:9:12: roles.researcher.count must be a whole number, got "two" — write a number such as 2',
      'org.yaml:10:7: gpus must be auto, none, or a list of GPU indices such as [0, 1], got "some" — write e.g. auto',
    ]);
  });

  it("uses the file name the caller gave", async () => {
    const result = await fakeLoad("configs/big.yaml", `${VALID}    count: 0\n`);
    expect(result).toEqual([
      "configs/big.yaml:8:12: roles.researcher.count must be at least 1, got 0 — write 1 or more",
    ]);
  });
});

async function fakeLoad(file: string, text: string): Promise<string[]> {
  const { loadConfig } = await import("../../../src/domain/config/index.js");
  const result = await loadConfig({ file, dir: DIR, text }, fakeProbe());
  return result.ok ? [] : result.problems;
}
