import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runInit } from "../../../src/cli/commands/init.js";
import { readAndLoadConfig } from "../../../src/adapters/store/config-file.js";
import { runValidate } from "../../../src/cli/commands/validate.js";
import { loadConfig } from "../../../src/domain/config/index.js";
import { renderStarter } from "../../../src/roles/index.js";
import { createConfigProbe } from "../../../src/adapters/probes/config.js";
import { createRepo, makeTempDir, removeDir } from "../../helpers/temp-repo.js";
import { runOrg } from "../../helpers/org-cli.js";
import { planArgvs } from "../../helpers/planned-argv.js";
import { PRESETS } from "../../../src/domain/runtimes/runtime-presets.js";
import { main } from "../../../src/cli/main.js";
import { capture } from "../../helpers/capture-io.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

/** Every file under dir with its content and mtime: proof that nothing changed. */
function snapshot(dir: string): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    if (name === ".git" || name.startsWith(`.git/`)) continue;
    const path = join(dir, name);
    const stat = statSync(path);
    entries[name] = stat.isDirectory() ? "dir" : `${stat.mtimeMs} ${readFileSync(path, "utf8")}`;
  }
  return entries;
}

function repo(files: Record<string, string> = {}): string {
  const dir = createRepo({ "train.py": "print('val_bpb: 1.0')\n", ...files });
  dirs.push(dir);
  return dir;
}

describe("org init and org validate", () => {
  it("the starter validates in a git repo on main", async () => {
    const dir = repo();
    const init = capture();
    expect(await runInit({ cwd: dir, pathEnv: "", countGpus: async () => 0 }, init.io)).toBe(0);
    expect(init.out).toEqual([
      "wrote org.yaml and prompts/researcher.md",
      "read the repo: train.py is the training script",
      "  verify    python3 train.py — metric val_bpb (minimize)",
      "  edits     train.py",
      "  protected nothing",
      "  runtime   hillclimb (no agent CLI on PATH), 2 agents",
      "  gpus      none (CPU mode: nvidia-smi lists none)",
      "check:",
      "  - verify.protected is empty: train.py both runs and prints val_bpb, so an agent could print any number — " +
        "move the scoring into a file of its own and list it",
      "  - roles.researcher.runtime: hillclimb has no constant to tune in train.py — install an agent CLI (claude, " +
        "codex, gemini, opencode) and write its name",
      "next: read org.yaml (each guess says why), check it with `org validate`, then start with `org up`",
    ]);
    expect(readFileSync(join(dir, "org.yaml"), "utf8")).toMatch(
      /^# yaml-language-server: \$schema=\S+org\.schema\.json\n/,
    );
    const validate = capture();
    expect(await runValidate({ cwd: dir }, validate.io)).toBe(0);
    expect(validate).toMatchObject({ out: ["org.yaml is valid: 1 role, 2 agents, runtime hillclimb"], err: [] });
  });

  it("the starter, as rendered, loads with every section set", async () => {
    const dir = repo({ "prompts/researcher.md": renderStarter().prompt });
    const result = await loadConfig({ file: "org.yaml", dir, text: renderStarter().orgYaml }, createConfigProbe());
    expect(result.ok && Object.keys(result.loaded.config).sort()).toEqual([
      "backend",
      "base",
      "gpus",
      "name",
      "repo",
      "roles",
      "runtimes",
      "share",
      "supervisor",
      "verify",
    ]);
  });

  it("the starter's researchers move to any agent CLI by their runtime alone, with its unattended flags", async () => {
    const dir = repo({ "prompts/researcher.md": renderStarter().prompt });
    expect(renderStarter().orgYaml).toContain(
      "    # For coding agents, write claude, codex, gemini or opencode here.\n    runtime: hillclimb\n",
    );
    for (const preset of ["claude", "codex", "gemini", "opencode"] as const) {
      const text = renderStarter().orgYaml.replace("runtime: hillclimb", `runtime: ${preset}`);
      const result = await loadConfig({ file: "org.yaml", dir, text }, createConfigProbe());
      if (!result.ok) throw new Error(result.problems.join("\n"));
      for (const argv of Object.values(planArgvs(result.loaded.config))) {
        expect(argv[0], preset).toBe(preset);
        expect(argv, preset).toEqual(expect.arrayContaining(PRESETS[preset].unattended));
      }
    }
  });

  it("init refuses to overwrite org.yaml and changes nothing", async () => {
    const dir = repo({ "org.yaml": "roles: {}\n" });
    const before = snapshot(dir);
    const init = capture();
    expect(await runInit({ cwd: dir }, init.io)).toBe(1);
    expect(init.err).toEqual([
      `org.yaml already exists in ${dir} — edit it, or run \`org init --force\` to replace it`,
    ]);
    expect(snapshot(dir)).toEqual(before);
  });

  it("init --force replaces org.yaml but keeps a prompt someone wrote", async () => {
    const dir = repo({ "org.yaml": "roles: {}\n", "prompts/researcher.md": "mine\n" });
    const init = capture();
    expect(await runInit({ cwd: dir, force: true, pathEnv: "", countGpus: async () => 0 }, init.io)).toBe(0);
    expect(init.out[0]).toBe("wrote org.yaml (kept the existing prompts/researcher.md)");
    expect(readFileSync(join(dir, "org.yaml"), "utf8")).toContain("researcher:");
    expect(readFileSync(join(dir, "prompts/researcher.md"), "utf8")).toBe("mine\n");
  });

  it("validate prints every problem to stderr, returns 1 and changes nothing", async () => {
    const dir = repo({ "org.yaml": "rols: {}\nbase: nope\n" });
    const before = snapshot(dir);
    const validate = capture();
    expect(await runValidate({ cwd: dir }, validate.io)).toBe(1);
    expect(validate.out).toEqual([]);
    expect(validate.err).toEqual([
      'org.yaml:1:1: unknown key "rols" — did you mean "roles"?',
      'org.yaml:2:7: base "nope" does not name a commit in repo "." — name an existing branch, ' +
        'tag or commit (see `git -C . branch`)',
    ]);
    expect(snapshot(dir)).toEqual(before);
  });

  it("a missing org.yaml, and a file named by a relative path", async () => {
    const dir = makeTempDir();
    dirs.push(dir);
    expect(await readAndLoadConfig({ cwd: dir })).toEqual({
      problems: [`org.yaml: not found in ${dir} — run \`org init\` to create one`],
    });
    mkdirSync(join(dir, "conf"));
    writeFileSync(join(dir, "conf/org.yaml"), "roles: {}\n");
    expect(await readAndLoadConfig({ cwd: dir, file: "conf/org.yaml" })).toEqual({
      problems: [
        `conf/org.yaml:1:1: repo "." is not a git repository (${join(dir, "conf")}) — run \`git init\` there, ` +
          `or point repo at your research git repo`,
        "conf/org.yaml:1:8: roles defines no role — define at least one role, e.g. researcher: {prompt: " +
          "prompts/researcher.md, runtime: claude}",
      ],
    });
    expect(readdirSync(dir).sort()).toEqual(["conf"]);
  });

  it("org --version prints package.json's version, from the bundle as from source", async () => {
    const version = (
      JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "..", "package.json"), "utf8")) as {
        version: string;
      }
    ).version;
    const fromSource = capture();
    expect(await main(["--version"], fromSource.io)).toBe(0);
    expect(fromSource.out).toEqual([version]);
    const dir = makeTempDir();
    dirs.push(dir);
    expect(runOrg(["-V"], { cwd: dir })).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
  });
});

