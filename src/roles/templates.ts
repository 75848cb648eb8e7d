// `org init --template <name>`: an org.yaml per topology (the catalogue's role kinds it wires, in order,
// plus the sections that tie them together) and the prompts/ files those kinds ship.
// Each must validate as written in a git repo whose base is main (test/cli/commands/templates.e2e.test.ts checks).

import { readRole, type PromptedKind } from "./catalogue.js";

export const TEMPLATES = ["pipeline", "hierarchy", "independent", "autoresearch"] as const;
export type TemplateName = (typeof TEMPLATES)[number];
/** Every name `--template` takes: the topologies, and software, which reads the repo (src/domain/init/software.ts). */
export const TEMPLATE_NAMES = [...TEMPLATES, "software"] as const;

export interface Template {
  orgYaml: string;
  /** Prompt files under prompts/ that org.yaml names; shipped in the package's own prompts/ folder. */
  prompts: string[];
  /** Other files the template starts with, by path: written only where none exists. */
  files: Record<string, string>;
}

const HEADER = `# yaml-language-server: $schema={{schema}}
# org.yaml: the {{name}} template. {{summary}}
# Check it with \`org validate\`, start it with \`org up\`, watch it with \`org status\`.

name: {{name}}
repo: .
base: main
# auto asks nvidia-smi; none runs on CPU; or list GPU indices such as [0, 1].
gpus: auto
share: []

# A preset starts its agent CLI unattended (no permission prompts), hands it the role's prompt, resumes
# its conversation after a restart and gives each agent a config folder of its own. Keys added to the
# entry override the preset's, e.g. env: { IS_SANDBOX: "1" } for claude run as root in a container.
runtimes:
  claude: { preset: claude }
  # To move a role to another CLI, set its runtime to codex, gemini or opencode: each is a preset too,
  # usable with no entry here; add one only to override a key, e.g.
  # gemini: { preset: gemini, pass_env: [GEMINI_API_KEY] }

# Wiring: an agent may message its own role, the role it reports_to, the roles that report to it,
# and the roles in its talks_to. \`org send\` refuses anything else.
roles:
`;

const FOOTER = `
# The verifier: the only judge. It runs every submitted commit in a clean checkout.
verify:
  command: [python, train.py]
  protected: [prepare.py]
  metric:
    name: val_bpb
    pattern: '^val_bpb:\\s*([0-9.]+)'
    goal: minimize
  timeout: 10m

# Messages (org send, org inbox) and the notes board (org note) stay small.
messages:
  max_bytes: 16384   # a longer message is refused: write the details to a file and send its path
  inbox_max: 50      # past this, the oldest messages, read ones first, move to the inbox's archive folder
  notes_max: 50      # entries on state/notes.md; the oldest move to state/notes-archive.md
  idle: 1s           # a pane must be still this long before a notification is typed into it

# Each agent keeps its own running summary in $ORG_PROGRESS (state/agents/<agent>/own/progress.md).
progress:
  max_bytes: 8192    # past this, the daemon moves its oldest lines to progress-archive.md
`;

export interface Topology {
  summary: string;
  /** The role kinds it wires, in the order org.yaml lists them. */
  kinds: PromptedKind[];
  /** Sections written after the roles, such as contracts or standup. */
  sections: string[];
}

const TOPOLOGIES: Record<TemplateName, Topology> = {
  pipeline: {
    summary: "planner → generator ⇄ evaluator: the\n# planner turns goal.md into a spec, "
      + "the generator writes all the code, the evaluator tries to break it.",
    kinds: ["planner", "generator", "evaluator"],
    sections: [`# Contracts: before a sprint's first submit the generator drafts a checklist of testable assertions
# (org contract draft -f contract.md) and both sign it (org contract sign); the evaluator may object
# (org contract object "why"). Submits are refused until it is agreed. The evaluator's review of the
# kept commit (org review -f review.md) closes the sprint when every assertion passes.
contracts:
  generator: generator
  evaluator: evaluator
  min_assertions: 15   # a contract with fewer assertions cannot be agreed
`],
  },
  hierarchy: {
    summary: "a chief scientist without a GPU assigns\n# work to juniors with one GPU each, reads their results, "
      + "and adopts or drops their branches.",
    kinds: ["chief", "junior"],
    sections: [`# Standups: the chief sets tasks (org task junior-1 -f task.md) and never reads raw logs: the daemon
# sends it a digest per junior (task, latest results, best, crashes) as a message of kind standup.
standup:
  to: chief
  every: 30m      # at most this often, when a verdict landed since the last digest
  verdicts: 10    # or as soon as this many verdicts have landed
`],
  },
  independent: {
    summary: "researchers each on their own branch,\n# sharing one bounded notes board of lessons learned and ideas "
      + "that failed (org note).",
    kinds: ["independent"],
    sections: [],
  },
  autoresearch: {
    summary: "one researcher per GPU, each running the\n# single experiment loop of autoresearch on its own branch.",
    kinds: ["researcher"],
    sections: [],
  },
};

export function readTopology(name: TemplateName): Topology {
  return TOPOLOGIES[name];
}

const GOAL = `# Goal

Say what you want in a few sentences: what to improve, by how much, within what budget, and what
must not change. The planner reads this file and turns it into a spec; agents never edit it.
`;

/** The template's files; `gpus` is how many GPUs nvidia-smi found, for one researcher per GPU. */
export function renderTemplate(name: TemplateName, opts: { schema: string; gpus: number }): Template {
  const topology = TOPOLOGIES[name];
  const count = opts.gpus > 0
    ? `count: ${opts.gpus}          # one per GPU: nvidia-smi showed ${opts.gpus} at \`org init\``
    : "count: 1          # one per GPU: none was found at `org init`; set it to your GPU count";
  const roles = [topology.kinds.map((kind) => readRole(kind).wiring).join(""), ...topology.sections].join("\n");
  const orgYaml = (HEADER + roles.replace("{{count}}", count) + FOOTER)
    .replace("{{schema}}", opts.schema)
    .replaceAll("{{name}}", name)
    .replace("{{summary}}", topology.summary);
  const prompts = topology.kinds.map((kind) => readRole(kind).prompt);
  return { orgYaml, prompts, files: name === "pipeline" ? { "goal.md": GOAL } : {} };
}
