// `org --help` for people: the commands in four groups with an example each, and an example under every command's
// own help. The command table in main.ts says what each command takes; this file says how they are found.
import { Command, Help, Option } from "commander";
import { wrapLine } from "../ui/wrap-text.js";

interface CommandGroup {
  heading: string;
  /** Each command with its one-line summary for this list; `org <command> --help` has the whole description. */
  commands: Record<string, string>;
  example: string;
}

const GROUPS: CommandGroup[] = [
  {
    heading: "Run the org:",
    commands: {
      init: "write a starter org.yaml and prompt",
      validate: "check org.yaml: every problem at once",
      doctor: "check node, git, tmux, GPUs and runtimes",
      up: "start the org: worktrees, GPUs, panes",
      down: "stop every process of the org",
      plan: "what a reload would change; changes nothing",
      reload: "apply org.yaml to the running org now",
      demo: "create the toy demo org, then start it",
    },
    example: "org init --template autoresearch && org validate && org up",
  },
  {
    heading: "Watch it:",
    commands: {
      status: "every agent: state, GPU, uptime, head",
      watch: "live dashboard: panes, GPUs, results",
      attach: "attach to the grid of panes",
      logs: "an agent's pane output",
      results: "the leaderboard: best per agent, counts",
      tried: "every idea tried, newest first",
      lineage: "which keep built on which, as a tree",
      traces: "what agents expected, ran and were told",
      ablate: "what each change kept in the best adds",
      confirm: "re-run a commit with fresh seeds",
      report: "an HTML progress report and SVG chart",
    },
    example: "org status; org results; org logs researcher-1 -f",
  },
  {
    heading: "Agents' commands (in an agent's worktree; people use some too):",
    commands: {
      submit: "commit your change and have it verified",
      wait: "wait for an experiment's verdict",
      send: "message an agent, or each of a role",
      inbox: "your unread messages",
      note: "add a lesson to the notes board",
      claim: "claim the idea you work on next",
      claims: "who works on which idea now",
      task: "set the task of an agent under you",
      contract: "a sprint's contract: draft, sign, object",
      review: "the evaluator's checklist for a sprint",
    },
    example: 'org submit -m "warm the learning rate up over 200 steps"',
  },
  {
    heading: "Programs (org.yaml and its prompts as each version ran):",
    commands: {
      history: "each program version and what it did",
      compare: "two program versions side by side",
      program: "show or restore a program version",
    },
    example: "org history; org compare; org program restore 3f2a",
  },
];

/** One example per command, by its words after `org`: what a first try of it looks like. */
const EXAMPLES: Record<string, string> = {
  init: "org init --template autoresearch",
  validate: "org validate",
  doctor: "org doctor",
  up: "org up --no-attach",
  down: "org down --clean",
  plan: "org plan -f draft.yaml",
  reload: "org reload",
  demo: "org demo --no-attach",
  status: "org status --wide",
  watch: "org watch",
  attach: "org attach researcher-1",
  logs: "org logs researcher-1 -f -n 50",
  results: "org results --json",
  tried: "org tried warmup lr",
  confirm: "org confirm 3f2a9c1 -n 5",
  lineage: "org lineage --json",
  traces: "org traces --diverged",
  ablate: "org ablate 3f2a9c1 --json",
  report: "org report -o report.html --x time",
  submit: 'org submit -m "warm the learning rate up over 200 steps"',
  wait: "org wait 2026-01-07T10-15-02-123Z-researcher-1-3f2a9c1",
  send: 'org send researcher "the data loader is the bottleneck: try a larger batch"',
  inbox: "org inbox --agent researcher-1",
  note: 'org note "a learning rate above 0.04 diverges at batch 64"',
  claim: 'org claim "cosine schedule with 200 warmup steps"',
  claims: "org claims --all",
  task: 'org task junior-1 "profile the data loader and report the slowest step"',
  contract: "org contract status",
  "contract draft": "org contract draft -f contract.md",
  "contract sign": "org contract sign",
  "contract object": 'org contract object "assertion 3 cannot fail: it compares the metric with itself"',
  "contract status": "org contract status",
  review: "org review -f review.md",
  history: "org history --wide",
  compare: "org compare 3f2a 9c1b",
  program: "org program show 3f2a",
  "program show": "org program show 3f2a",
  "program restore": "org program restore 3f2a",
};

/** The commands whose tables fit the terminal, and take --wide for every row and column whole. */
const FITTED = ["status", "results", "doctor", "tried", "history", "compare", "lineage", "ablate"];
const WIDE = "every row and column whole, as in a pipe, not fitted to the terminal";

/** Groups, examples and --wide onto the commands main.ts defined; call it once they all are. */
export function describeCommands(program: Command): void {
  for (const name of FITTED) findCommand(program, name).option("--wide", WIDE);
  for (const [path, example] of Object.entries(EXAMPLES)) {
    findCommand(program, path).addHelpText("after", `\nExample:\n  $ ${example}`);
  }
  const order = GROUPS.flatMap((group) => Object.keys(group.commands));
  program.configureHelp({
    // The help command is named in the last line instead: a fifth group of one would read as a category.
    visibleCommands(this: Help, cmd: Command) {
      const shown = Help.prototype.visibleCommands.call(this, cmd).filter((sub) => sub.name() !== "help");
      return shown.sort((a, b) => order.indexOf(a.name()) - order.indexOf(b.name()));
    },
    // Groups in the order above, whatever order main.ts defines the commands in.
    groupItems<T extends Command | Option>(this: Help, unsorted: T[], visible: T[], getGroup: (item: T) => string) {
      const base = Help.prototype.groupItems<T>;
      return base.call(this, visible.some((item) => item instanceof Option) ? unsorted : visible, visible, getGroup);
    },
    formatItemList(this: Help, heading: string, items: string[], helper: Help) {
      const example = GROUPS.find((group) => group.heading === heading)?.example;
      const listed = example ? [...items, ...wrapLine(`  e.g. ${example}`, helper.helpWidth ?? 80)] : items;
      return Help.prototype.formatItemList.call(this, heading, listed, helper);
    },
  });
  for (const group of GROUPS) {
    for (const [name, summary] of Object.entries(group.commands)) {
      findCommand(program, name).helpGroup(group.heading).summary(summary);
    }
  }
  program.addHelpText("after", "\n`org <command> --help` shows a command's options and an example.");
}

/** A command by its words after `org`; a name missing from main.ts is a bug this file must not hide. */
function findCommand(program: Command, path: string): Command {
  let command = program;
  for (const name of path.split(" ")) {
    const found = command.commands.find((sub) => sub.name() === name);
    if (!found) throw new Error(`help: no command "${path}" in main.ts`);
    command = found;
  }
  return command;
}
