// The demo org in a temp folder, sized for fault runs: CPU, built-in researchers, short verify runs. `org demo`
// makes its research repo (.demo/research) on the first start.
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { tmuxSocket } from "../../../src/domain/paths.js";
import { PACKAGE_ROOT } from "../org-cli.js";
import { makeTempDir, writeFiles } from "../temp-repo.js";
import { uniqueName, type TestOrg } from "./pane.js";

export interface DemoOptions {
  /** Researchers (default 2). */
  count?: number;
  /** The researchers' runtime (default the built-in hill climber, always restarted). */
  runtime?: string;
  verifyCommand?: string[];
  timeout?: string;
  /** One agent per extra role, named after its runtime, which is given here. */
  extraRoles?: Record<string, string>;
  supervisor?: string;
}

export interface DemoOrg extends TestOrg {
  /** The research repo `org demo` makes inside the folder. */
  repo: string;
}

function demoYaml(name: string, options: DemoOptions): string {
  const runtime = options.runtime ?? "{ builtin: hillclimb, restart: always }";
  const verify = JSON.stringify(options.verifyCommand ?? ["node", "train.mjs"]);
  const extra = Object.entries(options.extraRoles ?? {});
  const supervisor = options.supervisor ?? "{ backoff: 1s, max_backoff: 5s, max_restarts: 100, healthy_after: 10s }";
  const extraRuntimes = extra.map(([role, runtime]) => `  ${role}: ${runtime}\n`).join("");
  const extraRoles = extra
    .map(([role]) => `  ${role}: { prompt: prompts/researcher.md, runtime: ${role}, count: 1, edits: [train.mjs] }\n`)
    .join("");
  return `name: ${name}
repo: .demo/research
base: main
gpus: none
runtimes:
  hill: ${runtime}
${extraRuntimes}roles:
  researcher: { prompt: prompts/researcher.md, runtime: hill, count: ${options.count ?? 2}, edits: [train.mjs] }
${extraRoles}verify:
  command: ${verify}
  protected: [prepare.mjs]
  metric: { name: val_loss, pattern: '^val_loss:\\s*([-+0-9.eE]+)', goal: minimize }
  timeout: ${options.timeout ?? "1m"}
  parallel: 2
  repeats: 1
  keep: { k: 0, min_delta: 0, confirm: 0 }
supervisor: ${supervisor}
`;
}

export function createDemoFolderOrg(options: DemoOptions): DemoOrg {
  const dir = makeTempDir("org-faults-");
  const name = uniqueName("f", 1e5);
  writeFiles(dir, { "org.yaml": demoYaml(name, options) });
  mkdirSync(join(dir, "prompts"), { recursive: true });
  copyFileSync(join(PACKAGE_ROOT, "prompts/researcher.md"), join(dir, "prompts/researcher.md"));
  return { dir, repo: join(dir, ".demo/research"), name, socket: tmuxSocket(name, dir) };
}
