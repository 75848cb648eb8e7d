// The built-in role kinds: what each does, the prompt file it ships in prompts/, and how templates wire it.

export const ROLE_KINDS = [
  "researcher", "independent", "planner", "generator", "evaluator", "chief", "junior", "meta",
] as const;
export type RoleKind = (typeof ROLE_KINDS)[number];
/** Every kind but meta ships a prompt file and a wiring block. */
export type PromptedKind = Exclude<RoleKind, "meta">;

export interface PromptedRole {
  kind: PromptedKind;
  summary: string;
  /** Its prompt's file name under prompts/. */
  prompt: string;
  /** Its lines under `roles:` in a template's org.yaml, comments included. */
  wiring: string;
}

/** A meta role has no prompt of its own: any role whose edits name org.yaml or a prompt is one. */
export interface MetaRole {
  kind: "meta";
  summary: string;
  prompt: undefined;
  wiring: undefined;
  edits: readonly string[];
}

/** One kind's entry; with no argument, any kind's. */
export type RoleEntry<K extends RoleKind = RoleKind> = K extends "meta" ? MetaRole : PromptedRole & { kind: K };

const CATALOGUE: { [K in RoleKind]: RoleEntry<K> } = {
  researcher: {
    kind: "researcher",
    summary: "runs autoresearch's single experiment loop on its own branch, one per GPU",
    prompt: "researcher.md",
    wiring: `  researcher:
    prompt: prompts/researcher.md
    runtime: claude
    {{count}}
    gpu: true
    edits: [train.py]
`,
  },
  independent: {
    kind: "independent",
    summary: "a researcher on its own branch that shares a bounded notes board of lessons and failed ideas",
    prompt: "independent.md",
    wiring: `  researcher:
    prompt: prompts/independent.md
    runtime: claude
    count: 3
    gpu: true
    edits: [train.py]
`,
  },
  planner: {
    kind: "planner",
    summary: "turns goal.md into a spec of experiments and never touches code",
    prompt: "planner.md",
    wiring: `  # Turns goal.md into a spec of experiments; never touches code (a code commit of its own is rejected).
  planner:
    prompt: prompts/planner.md
    runtime: claude
    edits: [spec.md]
`,
  },
  generator: {
    kind: "generator",
    summary: "writes all the code and submits it, never grading its own work",
    prompt: "generator.md",
    wiring: `  # Writes all the code and submits it; never grades its own work.
  generator:
    prompt: prompts/generator.md
    runtime: claude
    gpu: true
    edits: [train.py]
    reports_to: planner
    talks_to: [evaluator]
`,
  },
  evaluator: {
    kind: "evaluator",
    summary: "reads every diff, runs its checks and assumes the code is broken",
    prompt: "evaluator.md",
    wiring: `  # Reads every diff, runs the checks it is given, and starts from the assumption that the code is broken.
  evaluator:
    prompt: prompts/evaluator.md
    runtime: claude
    edits: [review.md]
    reports_to: planner
    talks_to: [generator]
`,
  },
  chief: {
    kind: "chief",
    summary: "a chief scientist without a GPU who assigns work to juniors and adopts or drops their branches",
    prompt: "chief.md",
    wiring: `  chief:
    prompt: prompts/chief.md
    runtime: claude
    edits: [plan.md]
`,
  },
  junior: {
    kind: "junior",
    summary: "works the chief's tasks on one GPU and reports its results",
    prompt: "junior.md",
    wiring: `  junior:
    prompt: prompts/junior.md
    runtime: claude
    count: 2
    gpu: true
    edits: [train.py]
    reports_to: chief
`,
  },
  meta: {
    kind: "meta",
    summary: "edits the org itself, org.yaml and its prompts, through `org reload`",
    prompt: undefined,
    wiring: undefined,
    edits: ["org.yaml", "prompts/**"],
  },
};

export function readRole<K extends RoleKind>(kind: K): RoleEntry<K> {
  return CATALOGUE[kind];
}

export function listRoles(): RoleEntry[] {
  return ROLE_KINDS.map((kind) => CATALOGUE[kind]);
}

/** The kind whose prompt file this is, if any. */
export function findKindByPrompt(file: string): PromptedKind | undefined {
  return listRoles().find((role): role is PromptedRole => role.prompt === file)?.kind;
}

/** A YAML flow list as org.yaml writes it: an entry YAML would misread (such as a glob) is quoted. */
export function formatEdits(edits: readonly string[]): string {
  return `[${edits.map((rule) => (/^[\w./-]+$/.test(rule) ? rule : JSON.stringify(rule))).join(", ")}]`;
}
