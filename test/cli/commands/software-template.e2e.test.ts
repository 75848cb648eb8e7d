import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runInit } from "../../../src/cli/commands/init.js";
import { runValidate } from "../../../src/cli/commands/validate.js";
import { readAndLoadConfig } from "../../../src/adapters/store/config-file.js";
import { warnSuiteSize } from "../../../src/domain/contracts/suite-size.js";
import { ConfigSchema } from "../../../src/domain/config/index.js";
import { normalizeDefaults } from "../../../src/domain/config/normalize.js";
import { checkRepo } from "../../../src/domain/preflight/index.js";
import { proposeSoftware, type RepoListing } from "../../../src/domain/init/index.js";
import { createRepo, git, removeDir, writeFiles } from "../../helpers/temp-repo.js";
import { capture } from "../../helpers/capture-io.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

const PACKAGE = JSON.stringify({ name: "todo", scripts: { typecheck: "tsc --noEmit", lint: "eslint .", test: "vitest" },
  devDependencies: { typescript: "5" } });

function listing(files: Record<string, string>, untracked: string[] = []): RepoListing {
  return { folder: "todo", base: "main", files: Object.keys(files), untracked, texts: files, programs: [], gpus: 0 };
}

function repo(files: Record<string, string>): string {
  const dir = createRepo(files);
  dirs.push(dir);
  return dir;
}

const REFERENCES = Object.fromEntries(["good", "bad"].flatMap((side) =>
  [1, 2, 3].map((n) => [`eval/${side}/${n}.html`, `<h1>${side} ${n}</h1>\n`])));

describe("org init --template software: what it reads of the repo", () => {
  test("the app's files are the generator's edits; the gates' files, manifests and tools' config are protected", () => {
    const proposal = proposeSoftware(listing({
      "package.json": PACKAGE, "package-lock.json": "{}", "index.html": "<h1>x</h1>", "src/app.ts": "",
      "test/a.test.ts": "", "tsconfig.json": "{}", "eslint.config.js": "", ".gitignore": "node_modules\n",
      "README.md": "# todo\n",
    }, ["node_modules"]));
    if (proposal.kind !== "proposal") throw new Error(proposal.reason);
    expect(proposal.facts).toEqual({
      name: "todo", base: "main", page: "index.html", share: ["node_modules"],
      edits: ["index.html", "src", "test", "README.md", "e2e/contract.md"],
      protected: ["gates/script.mjs", "gates/browser.mjs", "tsconfig.json", "eslint.config.js", "package.json",
        "package-lock.json"],
      references: { good: ["eval/good/1.html", "eval/good/2.html", "eval/good/3.html"],
        bad: ["eval/bad/1.html", "eval/bad/2.html", "eval/bad/3.html"] },
    });
    expect(proposal.checks).toEqual([
      "the judge calibrates on references: put 3 pages you admire in eval/good/ and 3 you would reject in eval/bad/ " +
        "(or name yours in org.yaml's verify.judge.references), then commit them",
    ]);
  });

  test("committed references are listed; a missing script, page and node_modules are each a check", () => {
    const proposal = proposeSoftware(listing({
      "package.json": JSON.stringify({ scripts: { test: "node --test" }, dependencies: { lit: "3" } }),
      "public/index.html": "", "eval/good/landing.html": "", "eval/bad/spam.html": "",
    }));
    if (proposal.kind !== "proposal") throw new Error(proposal.reason);
    expect(proposal.facts.page).toBe("public/index.html");
    expect(proposal.facts.edits).toEqual(["public", "e2e/contract.md"]);
    expect(proposal.facts.references).toEqual({ good: ["eval/good/landing.html"], bad: ["eval/bad/spam.html"] });
    expect(proposal.checks).toEqual([
      'package.json has no "typecheck" script: the gate typecheck fails until you add one, ' +
        'e.g. "typecheck": "tsc --noEmit"',
      'package.json has no "lint" script: the gate lint fails until you add one, e.g. "lint": "eslint ."',
      "no node_modules here: run npm install, and add node_modules to share: so every checkout has it",
    ]);
    const test = 'echo "Error: no test specified" && exit 1';
    const placeholder = { scripts: { typecheck: "tsc", lint: "eslint .", test } };
    const npmInit = proposeSoftware(listing({ "package.json": JSON.stringify(placeholder), "index.html": "" }));
    expect(npmInit.kind === "proposal" && npmInit.checks[0]).toBe(
      'package.json\'s "test" script is npm\'s placeholder, which always fails: the gate test fails until you '
        + 'write one, e.g. "test": "node --test"',
    );
    const bare = proposeSoftware(listing({ "package.json": "{}", "eval/good/a.html": "", "eval/bad/b.html": "" }));
    expect(bare.kind === "proposal" && bare.checks.at(-1)).toBe(
      "index.html is not committed: the e2e gate fails on the base, so nothing is tried — " +
        "commit the app's first page, however bare",
    );
  });
});

describe("the browser suite's size", () => {
  test("org up's pre-flight warns too, and goes on: a warning, not a problem", () => {
    const role = { prompt: "prompts/p.md", runtime: "bot" };
    const config = normalizeDefaults(ConfigSchema.parse({
      runtimes: { bot: { command: ["sleep", "1"] } }, roles: { generator: role, evaluator: role },
      contracts: { min_assertions: 12 },
      verify: { command: ["node", "score.mjs"], metric: { name: "score", pattern: "^score: (.*)" },
        gates: [{ name: "browser", command: ["node", "./gates/browser.mjs"] }] },
    }));
    const tree = { base: "main", commit: "a".repeat(40), files: ["score.mjs", "gates/browser.mjs"], executables: [] };
    const onDisk = new Set(["score.mjs", "gates/browser.mjs"]);
    const found = checkRepo(config, { tree, onDisk, dirty: [], ownFiles: [] });
    expect(found.problems).toEqual([]);
    expect(found.warnings.map((warning) => warning.message)).toEqual([
      "contracts.min_assertions is 12: a contract of 12 assertions can be agreed, and its checklist is the browser " +
        "suite (gate browser)",
    ]);
  });

  const config = async (dir: string) => {
    const read = await readAndLoadConfig({ cwd: dir });
    if (!("loaded" in read)) throw new Error(read.problems.join("\n"));
    return read.loaded.config;
  };

  test("below 20 assertions a contract that is the browser suite is a warning naming why; 20 and more is none",
    async () => {
      const dir = repo({ "package.json": PACKAGE, "index.html": "<h1>x</h1>\n", ...REFERENCES });
      expect(await runInit({ cwd: dir, template: "software" }, capture().io)).toBe(0);
      expect(warnSuiteSize(await config(dir))).toEqual([]);
      const yaml = readFileSync(join(dir, "org.yaml"), "utf8");
      writeFileSync(join(dir, "org.yaml"), yaml.replace("min_assertions: 20", "min_assertions: 10"));
      git(dir, ["add", "-A"]);
      git(dir, ["commit", "-qm", "org"]);
      const line = yaml.split("\n").findIndex((text) => text.includes("min_assertions: 20")) + 1;
      const warning = `warning: org.yaml:${line}:19: contracts.min_assertions is 10: ` +
        "a contract of 10 assertions can be agreed, and its checklist is the browser suite (gate e2e) " +
        "— raise it to 20 or more: about 27 testable assertions suit a small app, " +
        "and 10 are too few to keep an evaluator honest";
      const validate = capture();
      expect(await runValidate({ cwd: dir }, validate.io)).toBe(0);
      expect(validate.err).toEqual([warning]);
      expect(validate.out).toEqual(["org.yaml is valid: 3 roles, 3 agents, runtime claude"]);
      const config10 = await config(dir);
      const noBrowser = { ...config10, verify: { ...config10.verify!, gates: config10.verify!.gates!.slice(0, 3) } };
      expect(warnSuiteSize(noBrowser)).toEqual([]);
    });
});

describe("org init --template software in a repo", () => {
  test("writes org.yaml, the prompts, the rubric and the gates; valid once the references are committed", async () => {
    const dir = repo({ "package.json": PACKAGE, "index.html": "<h1>x</h1>\n" });
    const init = capture();
    expect(await runInit({ cwd: dir, template: "software" }, init.io)).toBe(0);
    expect(init.err).toEqual([]);
    expect(init.out[0]).toBe("wrote org.yaml, goal.md, prompts/planner.md, prompts/generator.md, " +
      "prompts/evaluator.md, eval/rubric.md, gates/script.mjs and gates/browser.mjs");
    expect(init.out.at(-1)).toBe("next: write your goal in goal.md and the app you want in eval/rubric.md, " +
      "commit everything, check with `org validate`, then start with `org up`");
    for (const prompt of readdirSync(join(dir, "prompts"))) {
      expect(readFileSync(join(dir, "prompts", prompt), "utf8"), prompt).toMatch(/^# You are \{\{agent\}\}/);
    }
    expect(readFileSync(join(dir, "prompts/evaluator.md"), "utf8")).toContain("The generator's work is flawed");
    const before = capture();
    expect(await runValidate({ cwd: dir }, before.io)).toBe(1);
    expect(before.err[0]?.replace(/^org\.yaml:\d+:\d+: /, "")).toBe('verify.judge.references.good[0] file ' +
      '"eval/good/1.html" does not exist in the repo — put there a page the rubric should score high and commit it, ' +
      "or give its path relative to the repo");
    expect(before.err).toHaveLength(6);
    writeFiles(dir, REFERENCES);
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-qm", "org"]);
    const after = capture();
    expect(await runValidate({ cwd: dir }, after.io)).toBe(0);
    expect(after).toMatchObject({ out: ["org.yaml is valid: 3 roles, 3 agents, runtime claude"], err: [] });
  });

  test("a repo without package.json is refused, with the fix, and nothing is written", async () => {
    const dir = repo({ "index.html": "<h1>x</h1>\n" });
    const init = capture();
    expect(await runInit({ cwd: dir, template: "software" }, init.io)).toBe(1);
    expect(init.err).toEqual([`${dir}: no package.json is committed here — the software template's gates run its ` +
      "typecheck, lint and test scripts: create one (npm init -y), add those scripts, commit it, and run " +
      "`org init --template software` again"]);
    expect(git(dir, ["status", "--porcelain", "--untracked-files=all"])).toBe("");
  });

  test("an existing org.yaml is kept without --force; with it, org.yaml is replaced and a person's prompt kept",
    async () => {
      const dir = repo({ "package.json": PACKAGE, "org.yaml": "name: mine\n", "prompts/planner.md": "# mine\n" });
      const init = capture();
      expect(await runInit({ cwd: dir, template: "software" }, init.io)).toBe(1);
      expect(init.err).toEqual([`org.yaml already exists in ${dir} — edit it, or run ` +
        "`org init --template software --force` to replace it"]);
      expect(git(dir, ["status", "--porcelain", "--untracked-files=all"])).toBe("");
      const forced = capture();
      expect(await runInit({ cwd: dir, template: "software", force: true }, forced.io)).toBe(0);
      expect(forced.out[0]).toMatch(/ \(kept the existing prompts\/planner\.md\)$/);
      expect(readFileSync(join(dir, "prompts/planner.md"), "utf8")).toBe("# mine\n");
      expect(readFileSync(join(dir, "org.yaml"), "utf8")).toContain("# org.yaml: the software template.");
    });

  test("an unknown template names software among the choices", async () => {
    const dir = repo({ "package.json": PACKAGE });
    const init = capture();
    expect(await runInit({ cwd: dir, template: "sofware" }, init.io)).toBe(1);
    expect(init.err).toEqual(['unknown template "sofware" — did you mean "software"?']);
    expect(existsSync(join(dir, "org.yaml"))).toBe(false);
  });
});
