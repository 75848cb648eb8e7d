// A research repo with org.yaml at its root, made by the test process or by another identity (the red team's).
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tmuxSocket } from "../../../src/domain/paths.js";
import { gitAs, handOver, runAs, type Identity, type OrgAs } from "../../security/identities.js";
import { createRepo } from "../temp-repo.js";
import { PROMPT, uniqueName, type TestOrg } from "./pane.js";

export type OrgYaml = (name: string) => string;

export interface RepoOptions {
  /** org.yaml, given the org's unique name. */
  yaml: OrgYaml;
  /** More files committed beside it (over the defaults). */
  files?: Record<string, string>;
  /** No default train.py, prepare.py and prompts/researcher.md: the repo holds org.yaml and `files` alone. */
  plain?: boolean;
  /** The org name's first letter. */
  letter?: string;
}

function repoFiles(options: RepoOptions, name: string): Record<string, string> {
  const defaults: Record<string, string> = options.plain
    ? {}
    : { "train.py": "print('val_bpb: 1.0')\n", "prepare.py": "# fixed\n", "prompts/researcher.md": PROMPT };
  return { ...defaults, "org.yaml": options.yaml(name), ...options.files };
}

export function createRepoOrg(options: RepoOptions): TestOrg {
  const name = uniqueName(options.letter ?? "t");
  const dir = createRepo(repoFiles(options, name));
  return { dir, name, socket: tmuxSocket(name, dir) };
}

/** The same repo made and owned by `who`: every file written and committed as that identity. */
export function createRepoOrgAs(who: Identity, options: RepoOptions): OrgAs {
  const name = uniqueName(options.letter ?? "s");
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "org-sec-repo-")));
  handOver(who, dir);
  const script = "git init -q -b main && git config user.name org-test && " +
    "git config user.email org-test@example.invalid && git config commit.gpgsign false && git config gc.auto 0";
  const init = runAs(who, ["sh", "-c", script], { cwd: dir });
  if (init.code !== 0) throw new Error(`git init as ${who.name} failed: ${init.stderr}`);
  for (const [path, content] of Object.entries(repoFiles(options, name))) {
    const argv = ["sh", "-c", 'mkdir -p "$(dirname "$1")" && printf %s "$ORG_SEC_CONTENT" > "$1"', "sh", path];
    const write = runAs(who, argv, { cwd: dir, env: { ORG_SEC_CONTENT: content } });
    if (write.code !== 0) throw new Error(`writing ${path} as ${who.name} failed: ${write.stderr}`);
  }
  runAs(who, ["chmod", "-R", "a+rX", dir], { cwd: dir });
  gitAs(who, dir, ["add", "-A"]);
  gitAs(who, dir, ["commit", "-q", "-m", "initial"]);
  return { who, dir, name, socket: tmuxSocket(name, dir) };
}
