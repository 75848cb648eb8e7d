import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { PACKAGE_ROOT } from "./helpers/org-cli.js";

// cli → ui → daemon → flows → adapters → domain → roles: each folder may import its own and those after it.
const LAYERS = ["cli", "ui", "daemon", "flows", "adapters", "domain", "roles"];
// The commands that are a use case, each with the one flow it calls.
const FLOWS: Record<string, string> = {
  "submit.ts": "flows/submit-experiment.js", "send.ts": "flows/send-message.js",
  "confirm.ts": "flows/confirm-commit.js", "ablate.ts": "flows/ablate-commit.js",
  "wait.ts": "flows/wait-verdict.js", "validate.ts": "flows/validate-config.js",
  "init.ts": "flows/init-org.js", "builtin.ts": "flows/builtin/run-builtin.js",
  "up.ts": "flows/up/start-org.js", "down.ts": "flows/stop-org.js", "reload.ts": "flows/reload/apply-reload.js",
  "plan.ts": "flows/reload/reload-now.js", "program-restore.ts": "flows/reload/restore-program.js",
  "attach.ts": "flows/attach-grid.js",
  "watch.ts": "flows/views/dashboard-session.js",
  "contract.ts": "flows/contract-sprint.js",
  "review.ts": "flows/contract-sprint.js",
  "claim.ts": "flows/claim-idea.js",
  "demo.ts": "flows/prepare-demo.js",
  "logs.ts": "flows/views/pane-log.js",
  "program-show.ts": "flows/views/program-view.js",
  "traces.ts": "flows/views/transcripts-view.js",
  "doctor.ts": "flows/views/doctor-view.js",
  "slurm-run.ts": "flows/run-slurm-pane.js",
  "pty-host.ts": "flows/host-panes.js",
};
// The CLI modules that still reach an adapter themselves; every other one asks a flow (none may join the list).
const CLI_ADAPTER_USERS = ["cli/outbox-worker.ts"];
const SRC = join(PACKAGE_ROOT, "src");

function sourceFiles(dir: string, pattern = /\.ts$/): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.name === "node_modules") return [];
    return entry.isDirectory() ? sourceFiles(path, pattern) : pattern.test(entry.name) ? [path] : [];
  });
}

const RELATIVE_IMPORT = /(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g;

/** Every relative import of src as [importer, imported], both relative to src. */
function imports(): [string, string][] {
  return sourceFiles(SRC).flatMap((file) => [...readFileSync(file, "utf8").matchAll(RELATIVE_IMPORT)]
    .map((match): [string, string] => [relative(SRC, file), relative(SRC, resolve(dirname(file), match[1]!))]));
}

/** Each source file of src, relative to src, with its text. */
function readSources(): (readonly [string, string])[] {
  return sourceFiles(SRC).map((file) => [relative(SRC, file), readFileSync(file, "utf8")] as const);
}

/** The text without its comments, so a comment may name what the code may not. */
function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

/** Every import cycle in `edges`, each as the path that closes it, found by a depth-first walk from each file. */
function findCycles(edges: [string, string][]): string[] {
  const next = new Map<string, string[]>();
  for (const [from, to] of edges) next.set(from, [...new Set([...(next.get(from) ?? []), to.replace(/\.js$/, ".ts")])]);
  const done = new Set<string>();
  const cycles: string[] = [];
  const walk = (file: string, path: string[]): void => {
    if (path.includes(file)) {
      cycles.push([...path.slice(path.indexOf(file)), file].join(" -> "));
      return;
    }
    if (done.has(file)) return;
    for (const to of next.get(file) ?? []) walk(to, [...path, file]);
    done.add(file);
  };
  for (const file of [...next.keys()].sort()) walk(file, []);
  return cycles;
}

function layerBreaks(edges: [string, string][]): string[] {
  const layerOf = (path: string) => LAYERS.indexOf(path.split("/")[0]!);
  return edges.filter(([from, to]) => layerOf(to) < layerOf(from)).map(([from, to]) => `${from} -> ${to}`);
}

describe("the house", () => {
  test("every import points down the layers", () => {
    expect(layerBreaks(imports())).toEqual([]);
  });

  test("a layer break is found", () => {
    const edges: [string, string][] = [["domain/x.ts", "adapters/fs/files.js"], ["adapters/x.ts", "domain/paths.js"]];
    expect(layerBreaks(edges)).toEqual(["domain/x.ts -> adapters/fs/files.js"]);
  });

  // Type-only imports count: a cycle of types still means neither file can be read or moved without the other.
  test("no import cycles", () => {
    expect(findCycles(imports())).toEqual([]);
  });

  test("an import cycle is found, type-only or not", () => {
    const edges: [string, string][] = [["a.ts", "b.js"], ["b.ts", "c.js"], ["c.ts", "a.js"], ["c.ts", "d.js"]];
    expect(findCycles(edges)).toEqual(["a.ts -> b.ts -> c.ts -> a.ts"]);
  });

  test("no CLI command imports another command", () => {
    const isCommand = (path: string) => path.startsWith("cli/commands/");
    const crossed = imports().filter(([from, to]) => isCommand(from) && isCommand(to));
    expect(crossed.map(([from, to]) => `${from} -> ${to}`)).toEqual([]);
  });

  test("a use case's command calls its one flow, and the CLI reaches the daemon only to run it", () => {
    const edges = imports();
    const flowsOf = (command: string) => edges
      .filter(([from, to]) => from === `cli/commands/${command}` && to.startsWith("flows/")).map(([, to]) => to);
    expect(Object.keys(FLOWS).map((command) => [command, flowsOf(command)]))
      .toEqual(Object.entries(FLOWS).map(([command, flow]) => [command, [flow]]));
    // `org daemon` and `org keeper` are the daemon and its keeper; what else the CLI shares with it is a flow.
    const runsDaemon = ["cli/commands/daemon.ts", "cli/commands/keeper.ts"];
    const intoDaemon = edges.filter(([from, to]) => from.startsWith("cli/") && to.startsWith("daemon/"));
    expect(intoDaemon.filter(([from]) => !runsDaemon.includes(from)).map(([from, to]) => `${from} -> ${to}`))
      .toEqual([]);
  });

  test("a CLI module parses, calls a flow and prints: it imports no adapter, the listed few apart", () => {
    const reach = imports().filter(([from, to]) => from.startsWith("cli/") && to.startsWith("adapters/"));
    expect(reach.filter(([from]) => !CLI_ADAPTER_USERS.includes(from)).map(([from, to]) => `${from} -> ${to}`))
      .toEqual([]);
  });

  // A command's module loads when it runs: `org status` never loads `org submit`'s code, nor its flow.
  test("the command tables import each command's module lazily, with import()", () => {
    const eager = /^import [^;]*from "\.\/commands\//m;
    const tables = readSources().filter(([path]) => path.startsWith("cli/") && !path.startsWith("cli/commands/"));
    expect(tables.filter(([, text]) => eager.test(text)).map(([path]) => path)).toEqual([]);
    expect(tables.some(([path, text]) => path === "cli/run-commands.ts" && text.includes('import("./commands/up.js")')))
      .toBe(true);
  });

  test("the CLI runs no git itself: a flow asks src/adapters/git", () => {
    const runsGit = /\brunGit(?:OnWorktree)?\(|\bgit\(\[/;
    expect(readSources().filter(([path, text]) => path.startsWith("cli/") && runsGit.test(text)).map(([path]) => path))
      .toEqual([]);
  });

  test("git runs only in src/adapters/git, and processes start only in src/adapters/process.ts", () => {
    const files = readSources();
    const runsGit = (text: string) => /\bgitArgv\b|\[\s*"git"\s*,/.test(text);
    const startsProcesses = (text: string) => /from "node:child_process"/.test(text.replace(/import type [^;]*;/g, ""));
    const gitOutside = files.filter(([path, text]) => !path.startsWith("adapters/git/") && runsGit(text));
    const processesOutside = files.filter(([path, text]) => path !== "adapters/process.ts" && startsProcesses(text));
    expect(gitOutside.map(([path]) => path)).toEqual([]);
    expect(processesOutside.map(([path]) => path)).toEqual([]);
  });

  // A name that means two things sends a reader to the wrong file; `index.ts` is every folder's surface on purpose.
  test("no src file name repeats, index.ts apart", () => {
    const names = sourceFiles(SRC).map((file) => basename(file)).filter((name) => name !== "index.ts");
    expect(names.filter((name, at) => names.indexOf(name) !== at)).toEqual([]);
  });

  // Types included: a file that reaches past the index ties itself to how the folder is laid out inside.
  test("outside src/domain/config, only its index is imported", () => {
    const inside = (path: string) => path.startsWith("domain/config/");
    const reached = imports().filter(([from, to]) => !inside(from) && inside(to) && to !== "domain/config/index.js");
    expect(reached.map(([from, to]) => `${from} -> ${to}`)).toEqual([]);
  });

  // Each record under state/ has one owner module, the only one to read or write it. `users` may name its path too:
  // the module that builds it, a view reading through its file port, a message.
  test.each([
    { record: "state/queue", owner: "adapters/store/queue.ts", names: /["'`/]queue["'`/]|\bpaths\.queue\b/, users: [] },
    {
      record: "state/frontier.json", owner: "adapters/store/frontier-file.ts",
      names: /["'`/]frontier(?:-b)?\.json["'`]/,
      users: [],
    },
    {
      record: "state/results.tsv", owner: "adapters/store/results-file.ts",
      names: /["'`/]results\.tsv["'`]|\bresultsPath\(/,
      users: [
        "domain/experiments/results-table.ts", "domain/views/dashboard-source.ts",
        "flows/views/report-view.ts", "flows/views/lineage-view.ts",
      ],
    },
    {
      record: "state/journal.jsonl", owner: "adapters/store/journal-store.ts",
      names: /["'`/]journal\.jsonl["'`]|\bjournalPath\(/,
      users: ["domain/experiments/journal.ts", "domain/views/dashboard-source.ts"],
    },
    {
      record: "state/agents/<agent>/ledger.json", owner: "adapters/store/agent-ledger.ts",
      names: /["'`/]ledger\.json["'`]|\bagentPaths\([^)]*\)\.ledger\b/, users: ["domain/paths.ts"],
    },
    // The domain's lifecycle owns it, not adapters/store: org up, down, reload and the views read it there too.
    {
      record: "state/agents/<agent>/status.json", owner: "domain/lifecycle/agent-status-file.ts",
      names: /["'`/]status\.json["'`]|\b(?:agentPaths\([^)]*\)|paths|files)\.status\b/, users: ["domain/paths.ts"],
    },
    {
      record: "state/verdicts", owner: "adapters/verifier/verdict-file.ts", names: /["'`/]verdicts["'`/]/,
      users: ["domain/experiments/verdict-check.ts"],
    },
    {
      record: "state/confirmations", owner: "adapters/verifier/confirmation.ts", names: /["'`/]confirmations["'`/]/,
      users: [],
    },
    {
      record: "state/gpu-runs.jsonl, gpu-slots.json", owner: "adapters/store/gpu-runs-file.ts",
      names: /["'`/]gpu-(?:runs\.jsonl|slots\.json)["'`]/, users: [],
    },
    {
      record: "state/claims.md", owner: "adapters/store/claim-board.ts", names: /["'`/]claims\.(?:md|lock)["'`]/,
      users: ["domain/claims/board.ts"],
    },
    { record: "state/stacks.jsonl", owner: "adapters/store/stacks.ts", names: /["'`/]stacks\.jsonl["'`]/, users: [] },
    {
      record: "state/tried.jsonl", owner: "adapters/store/tried-ledger-file.ts", names: /["'`/]tried\.jsonl["'`]/,
      users: [],
    },
    {
      record: "state/agents/<agent>/inbox/receipts, state/messages/sent", owner: "adapters/store/message-records.ts",
      names: /["'`/](?:receipts|sent)["'`/]|\.read\.json["'`]/, users: [],
    },
    {
      record: "state/agents/<agent>/notifications.jsonl", owner: "adapters/store/notification-log.ts",
      names: /["'`/]notifications\.jsonl["'`]/, users: [],
    },
    // Every module names it through orgPaths(root).orgFile; the house test below holds who reads and writes it.
    {
      record: "state/org.json", owner: "domain/lifecycle/org-record-file.ts", names: /["'`/]org\.json["'`]/,
      users: ["domain/paths.ts", "daemon/outbox-broker.ts"],
    },
    {
      record: "state/daemon.json", owner: "domain/lifecycle/daemon-file.ts", names: /["'`/]daemon\.json["'`]/,
      users: ["domain/paths.ts"],
    },
    {
      record: "state/judge-calibration.json", owner: "adapters/verifier/judge-calibration.ts",
      names: /["'`/]judge-calibration\.json["'`]/, users: [],
    },
    {
      record: "state/keeper.json", owner: "adapters/keeper-process.ts", names: /["'`/]keeper\.json["'`]/, users: [],
    },
    {
      record: "state/disk.json", owner: "adapters/store/disk-state.ts", names: /["'`/]disk\.json["'`]/, users: [],
    },
    {
      record: "state/stop-waivers.json", owner: "adapters/store/stop-watch-state.ts",
      names: /["'`/]stop-waivers\.json["'`]|\bstopFiles\([^)]*\)\.waivers\b/, users: ["domain/paths.ts"],
    },
    {
      record: "state/agents/<agent>/usage-cursors.json", owner: "adapters/usage/store.ts",
      names: /["'`/]usage-cursors\.json["'`]|\busagePaths\([^)]*\)\.cursors\b|\bpaths\.cursors\b/,
      users: ["domain/usage/summary.ts"],
    },
    {
      record: "state/verifier/protected.json", owner: "adapters/verifier/protected-check.ts",
      names: /["'`/]protected\.json["'`]|\.hashes\b/, users: ["domain/paths.ts", "adapters/verifier/prepare-store.ts"],
    },
    {
      record: "state/standup.json", owner: "adapters/store/standup-mark.ts",
      names: /["'`/]standup\.json["'`]|\bstandupFile\(/, users: ["domain/paths.ts"],
    },
    {
      record: "state/agents/<agent>/resume-kickoff.json", owner: "adapters/store/resume-kickoff-file.ts",
      names: /["'`/]resume-kickoff\.json["'`]|\.resumeKickoff\b/,
      users: ["domain/paths.ts", "domain/lifecycle/up-org.ts", "domain/reconcile/apply.ts"],
    },
    {
      record: "state/reload.json", owner: "flows/reload/reload-log.ts",
      names: /["'`/]reload\.json["'`]|\breloadFile\(/, users: ["daemon/verifier/handle.ts"],
    },
    {
      record: "state/reload-requests, reload-replies", owner: "flows/reload/requests.ts",
      names: /["'`/]reload-(?:requests|replies)["'`/]|\b(?:requestsDir|replyFile)\(/,
      users: ["daemon/reload/hot-reload.ts"],
    },
    {
      record: "state/agents/<agent>/proposal-base.json", owner: "flows/reload/proposal.ts",
      names: /["'`/]proposal-base\.json["'`]/, users: [],
    },
    {
      record: "state/programs/<version>/meta.json, config.json", owner: "adapters/store/programs.ts",
      names: /["'`/](?:meta|config)\.json["'`]|\bprogramDir\(/, users: ["flows/reload/restore-program.ts"],
    },
    {
      record: "state/agents/<agent>/launch.json", owner: "domain/lifecycle/launch-file.ts",
      names: /["'`/]launch\.json["'`]|\b(?:agentPaths\([^)]*\)|paths|files)\.launch\b/,
      users: ["domain/paths.ts", "adapters/usage/agent.ts"],
    },
    {
      record: "state/slurm/<agent>/slurm.json, slurm-job.json", owner: "domain/slurm/slurm-job-file.ts",
      names: /["'`/]slurm(?:-job)?\.json["'`]|\bslurmAgentPaths\([^)]*\)\.(?:request|job)\b|\bpaths\.(?:request|job)\b/,
      users: ["domain/slurm/slurm-paths.ts"],
    },
    {
      record: "state/ablation", owner: "adapters/store/ablation.ts", names: /\bjoin\([^)]*"ablation"|\bablationPaths\(/,
      users: [],
    },
    {
      record: "state/notes.md, notes-archive.md", owner: "adapters/store/notes-board.ts",
      names: /["'`/]notes(?:-archive)?\.(?:md|lock)["'`]|\bnotesPaths\(/,
      users: ["cli/commands/note.ts", "domain/config/schema.ts"],
    },
    {
      record: "state/programs/ab-runs.jsonl", owner: "adapters/store/ab-run.ts", names: /["'`/]ab-runs\.jsonl["'`]/,
      users: [],
    },
    {
      record: "state/stop.json", owner: "adapters/store/stop-file.ts",
      names: /["'`/]stop\.json["'`]|\bstopFiles\([^)]*\)\.stop\b/, users: ["domain/paths.ts"],
    },
    {
      record: "state/agents/<agent>/usage.json", owner: "domain/usage/summary.ts",
      names: /["'`/]usage\.json["'`]|\b(?:usagePaths\([^)]*\)|this\.paths|paths)\.summary\b/, users: [],
    },
  ])("$record is read and written by its owner alone, src/$owner", ({ owner, names, users }) => {
    const files = readSources();
    expect(files.filter(([name]) => name === owner).length).toBe(1);
    const others = files.filter(([name]) => name !== owner && !users.includes(name));
    expect(others.filter(([, text]) => names.test(stripComments(text))).map(([name]) => name)).toEqual([]);
  });

  // The verifier's handle reads its text as a mark of change only, never as a record.
  test.each([
    {
      record: "state/org.json", path: "orgFile",
      owners: ["domain/lifecycle/org-record-file.ts", "daemon/verifier/handle.ts"],
    },
    { record: "state/daemon.json", path: "daemon", owners: ["domain/lifecycle/daemon-file.ts"] },
  ])("$record is read, written and removed by its owner alone, src/$owners.0", ({ path, owners }) => {
    const call = String.raw`\b(?:readJson\w*|readText|writeAtomic|write\w*Atomic|rm|removeFile)(?:<[^>]*>)?\(`;
    const io = new RegExp(`${call}[^()]*\\.${path}\\b`);
    const files = readSources();
    expect(files.filter(([name, text]) => !owners.includes(name) && io.test(stripComments(text))).map(([name]) => name))
      .toEqual([]);
  });

  const bestWriter = "adapters/verifier/frontier-writer.ts";
  test(`the org best (journal move, ref, frontier.json, log.md) has one writer, ${bestWriter}`, () => {
    const writer = bestWriter;
    const writes = (text: string) => /\bwriteFrontierFile\b|kind: "frontier", payload|op: "frontier"/.test(text)
      || (/\bbestBranchOf\b/.test(text) && /\b(?:moveRef|deleteRef)\(/.test(text));
    const owners = new Set([writer, "adapters/store/frontier-file.ts"]);
    const files = readSources();
    expect(files.filter(([name, text]) => name === writer && writes(text)).length).toBe(1);
    expect(files.filter(([name, text]) => !owners.has(name) && writes(text)).map(([name]) => name)).toEqual([]);
  });

  test("every export is used, and every exported value is used by the program itself", () => {
    const sources = readSources();
    const elsewhere = ["test", "bench", "scripts"]
      .flatMap((dir) => sourceFiles(join(PACKAGE_ROOT, dir), /\.(ts|mjs)$/))
      .map((file) => readFileSync(file, "utf8"));
    const exported = /^export (?:async )?(function\*?|const|let|class|interface|type|enum) ([A-Za-z_$][\w$]*)/gm;
    const dead: string[] = [];
    for (const [path, text] of sources) {
      for (const match of text.matchAll(exported)) {
        const [kind, name] = [match[1]!, match[2]!];
        const uses = new RegExp(`\\b${name.replaceAll("$", "\\$")}\\b`, "g");
        const usedHere = (text.match(uses)?.length ?? 0) > 1;
        const inProgram = usedHere || sources.some(([other, body]) => other !== path && uses.test(body));
        const isValue = kind !== "interface" && kind !== "type";
        if (!inProgram && (isValue || !elsewhere.some((body) => uses.test(body)))) dead.push(`${path}: ${name}`);
      }
    }
    expect(dead).toEqual([]);
  });

  test("every runtime dependency is imported by the program", () => {
    const manifest = readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8");
    const { dependencies } = JSON.parse(manifest) as { dependencies: Record<string, string> };
    const text = sourceFiles(SRC).map((file) => readFileSync(file, "utf8")).join("\n");
    const isImported = (name: string) => text.includes(`"${name}"`) || text.includes(`"${name}/`);
    expect(Object.keys(dependencies).filter((name) => !isImported(name))).toEqual([]);
  });

  test("every source folder is one of the layers", () => {
    expect(readdirSync(SRC).sort()).toEqual([...LAYERS].sort());
  });
});
