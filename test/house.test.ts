import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { PACKAGE_ROOT } from "./helpers/org-cli.js";
import { readSources, sourceFiles, SRC } from "./helpers/source-tree.js";
import { git } from "./helpers/temp-repo.js";

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
const RELATIVE_IMPORT = /(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g;
const MAX_COLUMNS = 120;
// Recorded from the real CLIs and kept as written, for the parsers' tests.
const VERBATIM = ["test/fixtures/transcripts/", "test/fixtures/judge-output/"];

/** Every relative import of src as [importer, imported], both relative to src. */
function imports(): [string, string][] {
  return sourceFiles(SRC).flatMap((file) => [...readFileSync(file, "utf8").matchAll(RELATIVE_IMPORT)]
    .map((match): [string, string] => [relative(SRC, file), relative(SRC, resolve(dirname(file), match[1]!))]));
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

/** Every tracked text file under src, test, bench and scripts, TS and shell alike, as [path, text]: not binary. */
function trackedTexts(): [string, string][] {
  const paths = git(PACKAGE_ROOT, ["ls-files", "-z", "--", "src", "test", "bench", "scripts"]).split("\0");
  return paths.filter((path) => path && !VERBATIM.some((dir) => path.startsWith(dir)))
    .map((path): [string, string] => [path, readFileSync(join(PACKAGE_ROOT, path), "utf8")])
    .filter(([, text]) => !text.includes("\0"));
}

/** Each line over MAX_COLUMNS characters (code points: "—" is one) as `path:line (length)`. */
function findLongLines(files: [string, string][]): string[] {
  return files.flatMap(([path, text]) => text.split("\n").flatMap((line, at) => {
    const length = [...line].length;
    return length > MAX_COLUMNS ? [`${path}:${at + 1} (${length})`] : [];
  }));
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

  test("no line of a tracked text file in src, test, bench or scripts is over 120 characters", () => {
    expect(findLongLines(trackedTexts())).toEqual([]);
  });

  test("a long line is found by file and line, characters counted, not bytes", () => {
    const files: [string, string][] = [["a.sh", `ok\n${"x".repeat(121)}\n`], ["b.ts", `${"—".repeat(120)}\n`]];
    expect(findLongLines(files)).toEqual(["a.sh:2 (121)"]);
  });

  test("every source folder is one of the layers", () => {
    expect(readdirSync(SRC).sort()).toEqual([...LAYERS].sort());
  });
});
