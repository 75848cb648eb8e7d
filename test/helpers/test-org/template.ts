// A research repo set up by `org init --template <template>` as a person runs it, then org.yaml edited.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect } from "vitest";
import { tmuxSocket } from "../../../src/domain/paths.js";
import { FIXTURES, runOrg } from "../org-cli.js";
import { createRepo } from "../temp-repo.js";
import type { TestOrg } from "./pane.js";

export interface TemplateOptions {
  template: string;
  /** Exact replacements in the template's org.yaml, each `from` found exactly once. */
  edits?: [from: string, to: string][];
  /** What `org init` runs with; a function of the repo's folder where it names a path inside it. */
  env?: Record<string, string> | ((dir: string) => Record<string, string>);
  /** A last rewrite of org.yaml after the edits. */
  rewrite?: (yaml: string) => string;
}

export function createTemplateRepoOrg(options: TemplateOptions): TestOrg {
  const dir = createRepo({ "train.py": "print('val_bpb: 1.0')\n", "prepare.py": "# fixed\n" });
  const env = typeof options.env === "function" ? options.env(dir) : options.env;
  const init = runOrg(["init", "--template", options.template], { cwd: dir, env: env ?? {} });
  expect(init.code, init.stderr).toBe(0);
  const file = join(dir, "org.yaml");
  const edited = replaceExactly(readFileSync(file, "utf8"), options.edits ?? []);
  writeFileSync(file, options.rewrite ? options.rewrite(edited) : edited);
  // The socket is per folder, so the template's own org name never collides with another test's.
  return { dir, name: options.template, socket: tmuxSocket(options.template, dir) };
}

/** Each `from` must occur exactly once: a template that drifted fails here, not silently later. */
export function replaceExactly(text: string, edits: [from: string, to: string][]): string {
  return edits.reduce((current, [from, to]) => {
    const count = current.split(from).length - 1;
    if (count !== 1) {
      throw new Error(`expected exactly one ${JSON.stringify(from)} in the template's org.yaml, found ${count}`);
    }
    return current.replace(from, () => to);
  }, text);
}

/** The template's claude runtime swapped for a scripted agent taking the old hand-written command's argv. */
export function swapRuntime(program: string): [from: string, to: string][] {
  const command = `["${program}", --append-system-prompt-file, "{prompt_file}", "{kickoff}"]`;
  return [["  claude: { preset: claude }\n", `  claude: { command: ${command}, restart: never }\n`]];
}

/** PATH for a template's org: the fake nvidia-smi, then the real python's folder (its pyenv shim takes seconds). */
export function templatePath(): string {
  const python = execFileSync("python", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();
  return `${FIXTURES}/gpu:${dirname(python)}:${process.env.PATH}`;
}
