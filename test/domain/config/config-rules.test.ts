import { describe, expect, it } from "vitest";
import { VALID, fakeProbe, problemsOf } from "../../fixtures/configs/fake-probe.js";

const withCommand = (command: string) => VALID.replace('[mybot, "{prompt_file}"]', command);

describe("rules: roles and runtimes", () => {
  it("an empty roles map", async () => {
    expect(await problemsOf("roles: {}\n")).toEqual([
      "org.yaml:1:8: roles defines no role — define at least one role, e.g. researcher: {prompt: "
        + "prompts/researcher.md, runtime: claude}",
    ]);
  });

  it("a role naming a runtime that does not exist, with a did-you-mean", async () => {
    expect(await problemsOf(VALID.replace("runtime: mybot", "runtime: mybott"))).toEqual([
      'org.yaml:7:14: roles.researcher.runtime names "mybott", which is neither defined under runtimes nor a '
        + 'preset — did you mean "mybot"?',
    ]);
  });

  it("a role naming a runtime far from any defined one and from every preset lists them", async () => {
    expect(await problemsOf(VALID.replace("runtime: mybot", "runtime: aider"))).toEqual([
      'org.yaml:7:14: roles.researcher.runtime names "aider", which is neither defined under runtimes nor a preset — '
        + 'name a preset (claude, codex, gemini or opencode) or a defined runtime (mybot), '
        + 'or define it under runtimes, e.g. runtimes: {aider: {command: [aider, "{kickoff}"]}}',
    ]);
  });

  it("a role naming a preset needs no runtimes entry", async () => {
    expect(await problemsOf(VALID.replace("runtime: mybot", "runtime: claude"))).toEqual([]);
  });

  it("a role whose prompt file does not exist", async () => {
    expect(await problemsOf(VALID.replace("prompts/researcher.md", "prompts/resercher.md"))).toEqual([
      'org.yaml:6:13: roles.researcher.prompt file "prompts/resercher.md" does not exist — '
        + 'create it, or give its path relative to this file',
    ]);
  });

  it("a runtime with neither command nor builtin", async () => {
    const text = VALID.replace('    command: [mybot, "{prompt_file}"]\n', "    restart: always\n");
    expect(await problemsOf(text)).toEqual([
      'org.yaml:3:5: runtimes.mybot has neither command, preset nor builtin — add preset: claude (or codex, gemini, '
        + 'opencode), command: [mybot, "{kickoff}"], or builtin: hillclimb',
    ]);
  });

  it("a runtime with both command and builtin", async () => {
    const text = VALID.replace('"{prompt_file}"]\n', '"{prompt_file}"]\n    builtin: hillclimb\n');
    expect(await problemsOf(text)).toEqual([
      "org.yaml:4:5: runtimes.mybot has both command and builtin — keep one: command starts your program, "
        + "builtin runs one shipped with org",
    ]);
  });

  it("an unknown placeholder with a did-you-mean, and one far from every placeholder", async () => {
    expect(await problemsOf(withCommand('[mybot, "{worktre}", "{xyz}", "--file={nope}", "{gpu}"]'))).toEqual([
      'org.yaml:3:22: runtimes.mybot.command[1] is an unknown placeholder "{worktre}" — did you mean "{worktree}"?',
      'org.yaml:3:35: runtimes.mybot.command[2] is an unknown placeholder "{xyz}" — '
        + 'use one of {prompt_file} {kickoff} {agent} {role} {worktree} {gpu} {state} {inbox} {session_id} '
        + '{unattended}, or write it without braces',
    ]);
  });
});

describe("rules: safe names", () => {
  const role = (name: string) => VALID.replace("  researcher:", `  ${name}:`);
  it.each([
    [
      "a space", role('"my role"'),
      `org.yaml:5:3: role name "my role" contains a space — use 1-40 letters, digits, '-' or '_', `
        + `starting with a letter or digit, e.g. "my-role"`,
    ],
    [
      "a slash", role("team/a"),
      `org.yaml:5:3: role name "team/a" contains "/" — use 1-40 letters, digits, '-' or '_', `
        + `starting with a letter or digit, e.g. "team-a"`,
    ],
    [
      "dots", role('".."'),
      `org.yaml:5:3: role name ".." contains "." — use 1-40 letters, digits, '-' or '_', `
        + `starting with a letter or digit`,
    ],
    [
      "shell metacharacters", role('"a;rm$x"'),
      `org.yaml:5:3: role name "a;rm$x" contains ";", "$" — use 1-40 letters, digits, '-' or '_', `
        + `starting with a letter or digit, e.g. "a-rm-x"`,
    ],
    [
      "unicode", role("café"),
      `org.yaml:5:3: role name "café" contains "é" — use 1-40 letters, digits, '-' or '_', `
        + `starting with a letter or digit, e.g. "caf"`,
    ],
    [
      "a leading dash", role("-x"),
      `org.yaml:5:3: role name "-x" starts with "-" — use 1-40 letters, digits, '-' or '_', `
        + `starting with a letter or digit, e.g. "x"`,
    ],
    [
      "too long", role("r".repeat(41)),
      `org.yaml:5:3: role name "${"r".repeat(41)}" is 41 characters long — use 1-40 letters, digits, '-' or '_', `
        + `starting with a letter or digit, e.g. "${"r".repeat(40)}"`,
    ],
  ])("a role name with %s", async (_name, text, expected) => {
    expect(await problemsOf(text)).toEqual([expected]);
  });

  it("runtime names and the org name", async () => {
    const text = `name: my org\n${VALID.replace("  mybot:", "  my.bot:").replace("runtime: mybot", "runtime: my.bot")}`;
    expect(await problemsOf(text)).toEqual([
      `org.yaml:1:7: name "my org" contains a space — use 1-40 letters, digits, '-' or '_', `
        + `starting with a letter or digit, e.g. "my-org"`,
      `org.yaml:3:3: runtime name "my.bot" contains "." — use 1-40 letters, digits, '-' or '_', `
        + `starting with a letter or digit, e.g. "my-bot"`,
    ]);
  });
});

describe("rules: repo and base", () => {
  it("a repo that does not exist", async () => {
    expect(await problemsOf(`repo: ../research\n${VALID}`)).toEqual([
      'org.yaml:1:7: repo "../research" does not exist (/research) — '
        + 'point repo at your research git repo, relative to this file',
    ]);
  });

  it("a repo that is not a git repository, and base is then not checked", async () => {
    const probe = fakeProbe({ files: ["/org", "/org/prompts/researcher.md", "/org/src"] });
    expect(await problemsOf(`repo: src\nbase: nope\n${VALID}`, probe)).toEqual([
      'org.yaml:1:7: repo "src" is not a git repository (/org/src) — run `git init` there, '
        + 'or point repo at your research git repo',
    ]);
  });

  it("the default repo, when it is not a git repository, points at the top of the file", async () => {
    expect(await problemsOf(VALID, fakeProbe({ repos: [] }))).toEqual([
      'org.yaml:1:1: repo "." is not a git repository (/org) — run `git init` there, '
        + 'or point repo at your research git repo',
    ]);
  });

  it("a base that does not resolve", async () => {
    expect(await problemsOf(`base: mian\n${VALID}`)).toEqual([
      'org.yaml:1:7: base "mian" does not name a commit in repo "." — name an existing branch, '
        + 'tag or commit (see `git -C . branch`)',
    ]);
  });

  it("a base in a repo without commits", async () => {
    expect(await problemsOf(VALID, fakeProbe({ revs: [] }))).toEqual([
      'org.yaml:1:1: base "main" does not name a commit in repo "." — the repo has no commits yet: make a first commit',
    ]);
  });
});

describe("rules: verify patterns and paths inside the repo", () => {
  const verify = (lines: string) => `${VALID}verify:\n  command: [python, train.py]\n${lines}`;
  it("a metric pattern that is not a regular expression", async () => {
    expect(await problemsOf(verify("  metric: {name: val_bpb, pattern: 'val_bpb: ([0-9.]+'}\n"))).toEqual([
      "org.yaml:10:36: verify.metric.pattern is not a valid regular expression: unterminated group — fix the pattern, "
        + "e.g. '^val_bpb:\\s*([0-9.]+)'",
    ]);
  });

  it("metric and memory patterns without a capture group", async () => {
    const noGroups = "  metric: {name: val_bpb, pattern: 'val_bpb: (?:[0-9.]+)'}\n"
      + "  memory: {pattern: 'peak_vram_mb: [0-9.]+'}\n";
    expect(await problemsOf(verify(noGroups))).toEqual([
      "org.yaml:10:36: verify.metric.pattern has no capture group, so no number can be read from the log — "
        + "put the number in parentheses, e.g. '^val_bpb:\\s*([0-9.]+)'",
      "org.yaml:11:21: verify.memory.pattern has no capture group, so no number can be read from the log — "
        + "put the number in parentheses, e.g. '^peak_vram_mb:\\s*([0-9.]+)'",
    ]);
  });

  it("share and protected entries that leave the repo", async () => {
    const text = `${VALID}share:\n  - /data/cache\n  - {path: ../.venv}\n  - ok/..x\nverify:\n`
      + `  command: [python, train.py]\n  protected: [prepare.py, ../eval.py, ~/secrets]\n`
      + `  metric: {name: loss, pattern: 'loss: (.*)'}\n`;
    expect(await problemsOf(text)).toEqual([
      'org.yaml:9:5: share[0] "/data/cache" is an absolute path; it must stay inside the repo — '
        + 'write a path relative to the repo that stays inside it',
      'org.yaml:10:12: share[1].path "../.venv" leaves the repo through ".." — '
        + 'write a path relative to the repo that stays inside it',
      'org.yaml:14:27: verify.protected[1] "../eval.py" leaves the repo through ".." — '
        + 'write a path relative to the repo that stays inside it',
      'org.yaml:14:39: verify.protected[2] "~/secrets" is an absolute path; it must stay inside the repo — '
        + 'write a path relative to the repo that stays inside it',
    ]);
  });
});
