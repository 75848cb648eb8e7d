import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect } from "vitest";
import { tmuxSocket } from "../../src/domain/paths.js";
import { FIXTURES, runOrg } from "./org-cli.js";
import { createRepo } from "./temp-repo.js";

/** A research repo set up by `org init --template <template>` as a person runs it, then org.yaml edited by exact replacements. */
export function createTemplateOrg(template: string, edits: [from: string, to: string][], env: Record<string, string> = {}): { dir: string; name: string; socket: string } {
  const dir = createRepo({ "train.py": "print('val_bpb: 1.0')\n", "prepare.py": "# fixed\n" });
  const init = runOrg(["init", "--template", template], { cwd: dir, env });
  expect(init.code, init.stderr).toBe(0);
  const file = join(dir, "org.yaml");
  writeFileSync(file, replaceExactly(readFileSync(file, "utf8"), edits));
  // The socket is per folder, so the template's own org name never collides with another test's.
  return { dir, name: template, socket: tmuxSocket(template, dir) };
}

/** Each `from` must occur exactly once: a template that drifted fails here, not silently later. */
export function replaceExactly(text: string, edits: [from: string, to: string][]): string {
  return edits.reduce((current, [from, to]) => {
    const count = current.split(from).length - 1;
    if (count !== 1) throw new Error(`expected exactly one ${JSON.stringify(from)} in the template's org.yaml, found ${count}`);
    return current.replace(from, () => to);
  }, text);
}

/** The template's claude runtime swapped for a scripted agent that takes the argv the old hand-written command gave, never restarted. */
export function swapRuntime(program: string): [from: string, to: string][] {
  return [["  claude: { preset: claude }\n", `  claude: { command: ["${program}", --append-system-prompt-file, "{prompt_file}", "{kickoff}"], restart: never }\n`]];
}

/** PATH for a template's org: the fake nvidia-smi, then the folder of the real python, whose pyenv shim takes seconds a call on a busy machine. */
export function templatePath(): string {
  const python = execFileSync("python", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();
  return `${FIXTURES}/gpu:${dirname(python)}:${process.env.PATH}`;
}
