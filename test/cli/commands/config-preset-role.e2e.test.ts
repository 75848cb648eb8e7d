import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runValidate } from "../../../src/cli/commands/validate.js";
import type { LoadedConfig } from "../../../src/domain/config/index.js";
import { orgPaths } from "../../../src/domain/paths.js";
import { buildLaunchSpec, listAgents, planAgents } from "../../../src/domain/lifecycle/plan-agents.js";
import {
  buildDesired, describeAction, reconcile, type DesiredOrg,
} from "../../../src/domain/reconcile/index.js";
import { PRESETS } from "../../../src/domain/runtimes/runtime-presets.js";
import { DIR, load, problemsOf } from "../../fixtures/configs/fake-probe.js";
import { createRepo, removeDir } from "../../helpers/temp-repo.js";
import { observeAsDesired } from "../../helpers/observed-org.js";

const paths = orgPaths(DIR);
const context = {
  state: paths.state,
  root: DIR,
  orgArgv: ["/node", "/pkg/bin/org.js"],
  binDir: `${paths.state}/bin`,
  basePath: "/usr/bin",
};
const AGENT_PRESETS = ["claude", "codex", "gemini", "opencode"] as const;

const roles = (runtime: string) =>
  `roles:\n  researcher:\n    prompt: prompts/researcher.md\n    runtime: ${runtime}\n    count: 2\n`;

async function loaded(text: string): Promise<LoadedConfig> {
  const result = await load(text);
  if (!result.ok) throw new Error(result.problems.join("\n"));
  return result.loaded;
}

function desire(config: LoadedConfig["config"]): DesiredOrg {
  return buildDesired({
    config, repoDir: DIR, paths, context, cpuMode: true,
    leases: new Map(listAgents(config).map((agent) => [agent.name, null])),
    templates: new Map([["researcher", "# {{agent}}\n"]]),
  });
}

/** The org as `org up` left it for `desired`: every file written, every pane alive. */
function planReload(before: LoadedConfig, after: LoadedConfig): string[] {
  const result = reconcile(desire(after.config), observeAsDesired(desire(before.config)));
  return result.kind === "refused"
    ? result.refusals.map((refusal) => refusal.message)
    : result.actions.map(describeAction);
}

function firstSpec(config: LoadedConfig["config"]) {
  return buildLaunchSpec(config, planAgents(config, paths.worktrees, new Map())[0]!, context);
}

describe("a role naming a preset directly", () => {
  test.each(AGENT_PRESETS)("runtime: %s with no runtimes entry plans " +
    "the launch spec of an entry {preset: <that name>}", async (preset) => {
    const implicit = await loaded(roles(preset));
    const explicit = await loaded(`runtimes:\n  ${preset}: { preset: ${preset} }\n${roles(preset)}`);
    expect(implicit.config.runtimes).toEqual(explicit.config.runtimes);
    const spec = firstSpec(implicit.config);
    expect(spec).toEqual(firstSpec(explicit.config));
    expect(spec.argv[0]).toBe(preset);
    expect(spec.argv).toEqual(expect.arrayContaining(PRESETS[preset].unattended));
    expect(spec.runtime).toMatchObject({ name: preset, preset });
  });

  test("org plan: swapping the entry for the bare preset name changes nothing, and back", async () => {
    const implicit = await loaded(roles("codex"));
    const explicit = await loaded(`runtimes:\n  codex: { preset: codex }\n${roles("codex")}`);
    const nothing = ["= nothing to do: the running org matches org.yaml"];
    expect(planReload(explicit, implicit)).toEqual(nothing);
    expect(planReload(implicit, explicit)).toEqual(nothing);
    expect(planReload(implicit, await loaded(roles("gemini")))).not.toEqual(nothing);
  });

  test("an entry named like a preset keeps its own command: the user's override wins", async () => {
    const own = await loaded(`runtimes:\n  claude: { command: [claude, --print, "{kickoff}"] }\n${roles("claude")}`);
    expect(firstSpec(own.config).argv).toEqual(["claude", "--print", own.config.roles.researcher!.kickoff]);
    expect(firstSpec(own.config).runtime).toMatchObject({ name: "claude", preset: "generic" });
    const quiet = await loaded(`runtimes:\n  codex: { preset: codex, unattended: [] }\n${roles("codex")}`);
    expect(firstSpec(quiet.config).argv).not.toEqual(expect.arrayContaining(PRESETS.codex.unattended));
  });

  test("another role's runtime entry does not stop a bare preset name", async () => {
    const config = (
      await loaded(
        `runtimes:\n  hill: { builtin: hillclimb }\n${roles("opencode")}  baseline: { prompt: prompts/researcher.md, ` +
          `runtime: hill }\n`,
      )
    ).config;
    expect(Object.keys(config.runtimes)).toEqual(["hill", "opencode"]);
  });
});

describe("a role naming a runtime that is neither defined nor a preset", () => {
  const at = (runtime: string) =>
    `org.yaml:4:14: roles.researcher.runtime names "${runtime}", which is neither defined under runtimes nor a preset`;

  test("near a preset", async () => {
    expect(await problemsOf(roles("claud"))).toEqual([`${at("claud")} — did you mean "claude" (a preset)?`]);
    expect(await problemsOf(roles("gemni"))).toEqual([`${at("gemni")} — did you mean "gemini" (a preset)?`]);
    expect(await problemsOf(roles("Codex"))).toEqual([`${at("Codex")} — did you mean "codex" (a preset)?`]);
  });

  test("near a defined runtime", async () => {
    expect(await problemsOf(`runtimes:\n  mybot: { command: [mybot] }\n${roles("mybott")}`)).toEqual([
      'org.yaml:6:14: roles.researcher.runtime names "mybott", which is neither defined under runtimes ' +
        'nor a preset — did you mean "mybot"?',
    ]);
  });

  test("near nothing: the presets, the defined runtimes and an example that starts the program asked for", async () => {
    expect(await problemsOf(roles("aider"))).toEqual([
      `${at("aider")} — name a preset (claude, codex, gemini or opencode), or define it under runtimes, ` +
        `e.g. runtimes: {aider: {command: [aider, "{kickoff}"]}}`,
    ]);
    expect(
      await problemsOf(`runtimes:\n  mybot: { command: [mybot] }\n  hill: { builtin: hillclimb }\n${roles("aider")}`),
    ).toEqual([
      'org.yaml:7:14: roles.researcher.runtime names "aider", which is neither defined under runtimes nor a preset — ' +
        'name a preset (claude, codex, gemini or opencode) or a defined runtime (mybot, hill), ' +
        'or define it under runtimes, e.g. runtimes: {aider: {command: [aider, "{kickoff}"]}}',
    ]);
  });

  test("generic is no preset a role can name alone: it has no program", async () => {
    expect(await problemsOf(roles("generic"))).toEqual([
      `${at("generic")} — name a preset (claude, codex, gemini or opencode), or define it under runtimes, ` +
        `e.g. runtimes: {generic: {command: [generic, "{kickoff}"]}}`,
    ]);
  });

  test("a runtime entry with no way to start names its own program, or its preset", async () => {
    expect(await problemsOf(`runtimes:\n  codex: { restart: always }\n${roles("codex")}`)).toEqual([
      'org.yaml:2:10: runtimes.codex has neither command, preset nor builtin — add preset: codex, command: [codex, ' +
        '"{kickoff}"], or builtin: hillclimb',
    ]);
    expect(await problemsOf(`runtimes:\n  aider: { restart: always }\n${roles("aider")}`)).toEqual([
      'org.yaml:2:10: runtimes.aider has neither command, preset nor builtin — add preset: claude (or codex, gemini, ' +
        'opencode), command: [aider, "{kickoff}"], or builtin: hillclimb',
    ]);
  });
});

describe("org validate with misspelt runtimes", () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach(removeDir));

  test("reports every one at once, returns 1 and changes nothing", async () => {
    const yaml = `runtimes:
  mybot: { command: [mybot] }
roles:
  a: { prompt: p.md, runtime: claud }
  b: { prompt: p.md, runtime: mybott }
  c: { prompt: p.md, runtime: aider }
  d: { prompt: p.md, runtime: codex, count: two }
`;
    const dir = createRepo({ "org.yaml": yaml, "p.md": "# {{agent}}\n" });
    dirs.push(dir);
    const before = snapshot(dir);
    const out: string[] = [];
    const err: string[] = [];
    expect(await runValidate({ cwd: dir }, { out: (s) => out.push(s), err: (s) => err.push(s) })).toBe(1);
    expect(out).toEqual([]);
    const neither = "which is neither defined under runtimes nor a preset";
    expect(err).toEqual([
      `org.yaml:4:31: roles.a.runtime names "claud", ${neither} — did you mean "claude" (a preset)?`,
      `org.yaml:5:31: roles.b.runtime names "mybott", ${neither} — did you mean "mybot"?`,
      `org.yaml:6:31: roles.c.runtime names "aider", ${neither} — name a preset (claude, codex, gemini or opencode) ` +
        `or a defined runtime (mybot), or define it under runtimes, e.g. runtimes: {aider: {command: [aider, ` +
        `"{kickoff}"]}}`,
      'org.yaml:7:45: roles.d.count must be a whole number, got "two" — write a number such as 2',
    ]);
    expect(snapshot(dir)).toEqual(before);
  });
});

/** Every file under dir with its content and mtime: proof that nothing changed. */
function snapshot(dir: string): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    if (name === ".git" || name.startsWith(".git/")) continue;
    const stat = statSync(join(dir, name));
    entries[name] = stat.isDirectory() ? "dir" : `${stat.mtimeMs} ${readFileSync(join(dir, name), "utf8")}`;
  }
  return entries;
}
