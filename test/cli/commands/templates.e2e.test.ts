import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runInit } from "../../../src/cli/commands/init.js";
import { readAndLoadConfig } from "../../../src/adapters/store/config-file.js";
import { runValidate } from "../../../src/cli/commands/validate.js";
import { TEMPLATES } from "../../../src/roles/index.js";
import { mayMessage } from "../../../src/domain/messages/wiring.js";
import { PRESETS } from "../../../src/domain/runtimes/runtime-presets.js";
import { planArgvs } from "../../helpers/planned-argv.js";
import { createRepo, removeDir } from "../../helpers/temp-repo.js";
import { capture } from "../../helpers/capture-io.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

function repo(files: Record<string, string> = {}): string {
  const dir = createRepo({ "train.py": "print('val_bpb: 1.0')\n", ...files });
  dirs.push(dir);
  return dir;
}

const EXPECTED = {
  pipeline: {
    wrote: "wrote org.yaml, goal.md, prompts/planner.md, prompts/generator.md and prompts/evaluator.md",
    valid: "org.yaml is valid: 3 roles, 3 agents, runtime claude",
  },
  hierarchy: {
    wrote: "wrote org.yaml, prompts/chief.md and prompts/junior.md",
    valid: "org.yaml is valid: 2 roles, 3 agents, runtime claude",
  },
  independent: {
    wrote: "wrote org.yaml and prompts/independent.md",
    valid: "org.yaml is valid: 1 role, 3 agents, runtime claude",
  },
  autoresearch: {
    wrote: "wrote org.yaml and prompts/researcher.md",
    valid: "org.yaml is valid: 1 role, 4 agents, runtime claude",
  },
};

describe("org init --template", () => {
  test.each(TEMPLATES)("%s writes org.yaml and its prompts, and validates in a fresh git repo", async (name) => {
    const dir = repo();
    const init = capture();
    expect(await runInit({ cwd: dir, template: name, countGpus: async () => 4 }, init.io)).toBe(0);
    expect(init.err).toEqual([]);
    expect(init.out[0]).toBe(EXPECTED[name].wrote);
    const validate = capture();
    expect(await runValidate({ cwd: dir }, validate.io)).toBe(0);
    expect(validate).toMatchObject({ out: [EXPECTED[name].valid], err: [] });
    for (const prompt of readdirSync(join(dir, "prompts"))) {
      const text = readFileSync(join(dir, "prompts", prompt), "utf8");
      expect(text, prompt).toMatch(/^# You are \{\{agent\}\}/);
      expect(text, prompt).toContain("org inbox");
    }
  });

  test.each(TEMPLATES)("%s starts every agent with the claude preset's unattended flags; " +
    "a role moves to codex by its runtime alone", async (name) => {
    const dir = repo();
    await runInit({ cwd: dir, template: name, countGpus: async () => 2 }, capture().io);
    const argvs = async () => {
      const read = await readAndLoadConfig({ cwd: dir });
      if (!("loaded" in read)) throw new Error(read.problems.join("\n"));
      return Object.values(planArgvs(read.loaded.config));
    };
    for (const argv of await argvs()) {
      expect(argv[0]).toBe("claude");
      expect(argv).toEqual(expect.arrayContaining(PRESETS.claude.unattended));
    }
    const file = join(dir, "org.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("runtime: claude", "runtime: codex"));
    const [first] = await argvs();
    expect(first![0]).toBe("codex");
    expect(first).toEqual(expect.arrayContaining(PRESETS.codex.unattended));
  });

  test("the pipeline's wiring lets each role reach the ones it works with, and no more", async () => {
    const dir = repo();
    await runInit({ cwd: dir, template: "pipeline" }, capture().io);
    const read = await readAndLoadConfig({ cwd: dir });
    if (!("loaded" in read)) throw new Error(read.problems.join("\n"));
    const roles = read.loaded.config.roles;
    const pairs = ["planner", "generator", "evaluator"].flatMap((from) =>
      ["planner", "generator", "evaluator"]
        .filter((to) => to !== from && mayMessage(roles, from, to))
        .map((to) => `${from}→${to}`),
    );
    expect(pairs).toEqual([
      "planner→generator",
      "planner→evaluator",
      "generator→planner",
      "generator→evaluator",
      "evaluator→planner",
      "evaluator→generator",
    ]);
  });

  test("autoresearch runs one researcher per GPU, and one when none is found", async () => {
    const dir = repo();
    await runInit({ cwd: dir, template: "autoresearch", countGpus: async () => 0 }, capture().io);
    expect(readFileSync(join(dir, "org.yaml"), "utf8")).toContain(
      "count: 1          # one per GPU: none was found at `org init`; set it to your GPU count",
    );
  });

  test("the notes board and the hierarchy's reporting line are in the prompts", async () => {
    const dir = repo();
    await runInit({ cwd: dir, template: "independent" }, capture().io);
    expect(readFileSync(join(dir, "prompts", "independent.md"), "utf8")).toContain('org note "');
    const other = repo();
    await runInit({ cwd: other, template: "hierarchy" }, capture().io);
    expect(readFileSync(join(other, "org.yaml"), "utf8")).toContain("    reports_to: chief\n");
  });

  test("an unknown template is refused with a did-you-mean and nothing is written", async () => {
    const dir = repo();
    const init = capture();
    expect(await runInit({ cwd: dir, template: "pipline" }, init.io)).toBe(1);
    expect(init.err).toEqual(['unknown template "pipline" — did you mean "pipeline"?']);
    expect(await runInit({ cwd: dir, template: "flat" }, init.io)).toBe(1);
    expect(init.err[1])
      .toBe('unknown template "flat" — use one of pipeline, hierarchy, independent, autoresearch, software');
    expect(readdirSync(dir).sort()).toEqual([".git", "train.py"]);
  });

  test("an existing org.yaml is kept without --force; prompts a person wrote are kept with it", async () => {
    const dir = repo({ "org.yaml": "roles: {}\n", "prompts/chief.md": "mine\n" });
    const init = capture();
    expect(await runInit({ cwd: dir, template: "hierarchy" }, init.io)).toBe(1);
    expect(init.err).toEqual([
      `org.yaml already exists in ${dir} — edit it, or run \`org init --template hierarchy --force\` to replace it`,
    ]);
    expect(await runInit({ cwd: dir, template: "hierarchy", force: true }, init.io)).toBe(0);
    expect(init.out[0]).toBe("wrote org.yaml and prompts/junior.md (kept the existing prompts/chief.md)");
    expect(readFileSync(join(dir, "prompts", "chief.md"), "utf8")).toBe("mine\n");
  });
});
