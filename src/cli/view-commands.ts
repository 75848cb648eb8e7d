import { defineCommand, type OptionSpec, type TableRow } from "./command-table.js";

const JSON_OPTION: OptionSpec = { flags: "--json", description: "machine-readable" };
type TracesOptions = { experiment?: string; grep?: string; since?: string; diverged?: boolean; json?: boolean };

/** Watch the org: its agents, panes, results, ideas, lineage, traces, ablations and report. */
export const VIEW_COMMANDS: readonly TableRow[] = [
  defineCommand<{ json?: boolean }>({
    name: "status", description: "every agent with role, GPU, pid, state, restarts, uptime, head",
    options: [JSON_OPTION],
    run: async ({ opts, root, io }) =>
      (await import("./commands/status.js")).runStatus({ root: root(), json: Boolean(opts.json) }, io),
  }),
  defineCommand<object, [string | undefined]>({
    name: "attach", args: [["[agent]", "select this agent's pane"]], description: "attach to the grid",
    run: async ({ args: [agent], root, io }) =>
      (await import("./commands/attach.js")).runAttach({ root: root(), agent }, io),
  }),
  defineCommand<{ follow?: boolean; lines: string }, [string]>({
    name: "logs", args: [["<agent>", "an agent name, or daemon"]], description: "an agent's pane output",
    options: [
      { flags: "-f, --follow", description: "keep printing new output" },
      { flags: "-n, --lines <n>", description: "lines to show", default: "100" },
    ],
    run: async ({ args: [agent], opts, root, io }) => (await import("./commands/logs.js"))
      .runLogs({ root: root(), agent, follow: Boolean(opts.follow), lines: Number(opts.lines) || 100 }, io),
  }),
  defineCommand<{ json?: boolean }>({
    name: "lineage", description: "the tree of kept commits: which keep built on which (own chain, follow, stack), " +
      "and the share built on another agent's result",
    options: [JSON_OPTION],
    run: async ({ opts, root, io }) =>
      (await import("./commands/lineage.js")).runLineage({ root: root(), json: Boolean(opts.json) }, io),
  }),
  defineCommand<TracesOptions, [string | undefined]>({
    name: "traces", args: [["[agent]", "an agent: its experiments, each from its CLI's own transcript"]],
    description: "what each agent expected, ran and was told, per experiment, from its CLI's transcript; " +
      "--diverged: every discard and crash",
    options: [
      { flags: "--experiment <id>", description: "one experiment whole (an id or a commit), every event of it" },
      { flags: "--grep <regex>", description: "only events matching; without an agent, every agent's transcript" },
      { flags: "--since <when>", description: "from a duration ago (30m, 2h, 1d) or a time (2026-12-05T04:00Z)" },
      { flags: "--diverged",
        description: "every discard and crash, the agent's stated expectation beside the verdict" },
      JSON_OPTION,
    ],
    run: async ({ args: [agent], opts, root, io }) => (await import("./commands/traces.js")).runTraces({
      root: root(), agent, ...opts, diverged: Boolean(opts.diverged), json: Boolean(opts.json),
    }, io),
  }),
  defineCommand<{ json?: boolean }, [string | undefined]>({
    name: "ablate", args: [["[commit]", "a kept commit (default: the org best)"]],
    description: "what each kept change of the best contributes: the best without it, measured in the verifier's queue",
    options: [JSON_OPTION],
    run: async ({ args: [commit], opts, root, io }) =>
      (await import("./commands/ablate.js")).runAblate({ root: root(), commit, json: Boolean(opts.json) }, io),
  }),
  defineCommand<{ json?: boolean }>({
    name: "results", description: "the leaderboard: best per agent, the org's best, counts per verdict",
    options: [JSON_OPTION],
    run: async ({ opts, root, io }) =>
      (await import("./commands/results.js")).runResults({ root: root(), json: Boolean(opts.json) }, io),
  }),
  defineCommand<{ json?: boolean }, [string[]]>({
    name: "tried",
    args: [["[words...]", "only ideas whose description, agent, verdict or commit holds every word (any case)"]],
    description: "every idea tried in the org, newest first: description, agent, verdict, delta, commit — " +
      "run it before trying an idea",
    options: [JSON_OPTION],
    run: async ({ args: [words], opts, root, io }) => (await import("./commands/tried.js"))
      .runTried({ root: root(), text: words.join(" "), json: Boolean(opts.json) }, io),
  }),
  defineCommand({
    name: "watch", description: "live dashboard: every agent's pane, GPU leases, leaderboard and events " +
      "(q quits, the org keeps running)",
    run: async ({ root, io }) => (await import("./commands/watch.js")).runWatch({ root: root() }, io),
  }),
  defineCommand<{ out?: string; svg?: string; x: "index" | "time" }>({
    name: "report", description: "write a self-contained HTML progress report and an SVG chart from results.tsv",
    options: [
      { flags: "-o, --out <file>", description: "the HTML page (default: state/report.html)" },
      { flags: "--svg <file>", description: "the SVG chart (default: state/progress.svg)" },
      { flags: "--x <axis>", description: "x axis: experiment index or time",
        choices: ["index", "time"], default: "index" },
    ],
    run: async ({ opts, root, io }) => (await import("./commands/report.js")).runReport({ root: root(), ...opts }, io),
  }),
];
