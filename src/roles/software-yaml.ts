// `org init --template software`: planner, generator and evaluator build a small web app; gates typecheck, lint, test
// and a browser suite in Chromium (the contract's checklist), then a rubric judge is the metric.

/** What init found in the repo, decided in src/domain/init/software.ts. */
export interface SoftwareFacts {
  name: string;
  base: string;
  /** The generator's edits: the app's files as committed, and the suite it copies the contract to. */
  edits: string[];
  /** The gates' own files and the tools' config, as committed (gates/*.mjs once written). */
  protected: string[];
  /** Untracked folders every checkout needs (node_modules). */
  share: string[];
  /** The page the browser gate opens. */
  page: string;
  references: { good: string[]; bad: string[] };
}

/** The browser suite's runner: a gate whose argv names it runs the contract's checklist in Chromium. */
export const BROWSER_RUNNER = "gates/browser.mjs";
export const SCRIPT_RUNNER = "gates/script.mjs";
/** Below this many assertions a contract is too small to keep an evaluator honest (the seeds found ~27 right). */
export const SUITE_MIN_ASSERTIONS = 20;

const flow = (items: readonly string[]) =>
  `[${items.map((item) => (/^[\w./-]+$/.test(item) ? item : JSON.stringify(item))).join(", ")}]`;

/** The org.yaml the template writes; `schema` is where editors find org.schema.json. */
export function renderSoftwareYaml(facts: SoftwareFacts, schema: string): string {
  return `# yaml-language-server: $schema=${schema}
# org.yaml: the software template. planner → generator ⇄ evaluator build a small web app: the planner
# writes the spec, the evaluator writes each sprint's contract (its checklist is the browser suite) and
# assumes the work is flawed, the generator builds. Gates must pass; then a rubric judge is the metric.
# Check it with \`org validate\`, start it with \`org up\`, watch it with \`org status\`. docs/software-template.md

name: ${facts.name}
repo: .
base: ${facts.base}
gpus: none
share: ${flow(facts.share)}

runtimes:
  claude: { preset: claude }

roles:
  # Turns goal.md into a product spec; never touches code.
  planner:
    prompt: prompts/planner.md
    runtime: claude
    edits: [spec.md]
  # Builds the app and submits it; copies each agreed contract to e2e/contract.md, the browser suite.
  generator:
    prompt: prompts/generator.md
    runtime: claude
    # The app's files as committed: add a file or folder it may create (a folder's name covers what is in it).
    edits: ${flow(facts.edits)}
    reports_to: planner
    talks_to: [evaluator]
  # Writes each sprint's contract, reviews every commit, and starts from the assumption that it is broken.
  evaluator:
    prompt: prompts/evaluator.md
    runtime: claude
    edits: [review.md]
    reports_to: planner
    talks_to: [generator]

# The evaluator writes the checklist, the generator drafts it (org contract draft), both sign; submits
# are refused until then. Each item ends with a JavaScript check in backticks that the e2e gate runs.
contracts:
  generator: generator
  evaluator: evaluator
  # No contract of fewer is agreed. org validate and org up warn below ${SUITE_MIN_ASSERTIONS}: about 27 suit
  # a small app, and 10 are too few to keep an evaluator honest.
  min_assertions: ${SUITE_MIN_ASSERTIONS}

# The verifier runs every submitted commit in a clean checkout: each gate in order (the first failure
# is the verdict, naming its gate), then the judge. gates/script.mjs runs package.json's script and
# says what to add when it is missing; gates/browser.mjs serves the checkout, opens --page in headless
# Chromium, saves e2e/output/screenshot.png for the judge and checks each item of e2e/contract.md.
verify:
  protected: ${flow(facts.protected)}
  repeats: 1
  gates:
    - { name: typecheck, command: [node, ${SCRIPT_RUNNER}, typecheck], timeout: 5m }
    - { name: lint, command: [node, ${SCRIPT_RUNNER}, lint], timeout: 5m }
    - { name: test, command: [node, ${SCRIPT_RUNNER}, test], timeout: 10m }
    - { name: e2e, command: [node, ${BROWSER_RUNNER}, --page, ${facts.page}], timeout: 5m }
  judge:
    runtime: claude
    rubric: eval/rubric.md   # a "## heading" per dimension: rewrite it to describe the app you want
    dimensions: { design: 0.3, originality: 0.2, craft: 0.25, function: 0.25 }
    # Calibration at org up: every good reference must score above every bad one beyond the judge's
    # noise. Put 3 examples of work you admire in eval/good/ and 3 you would reject in eval/bad/ (HTML
    # pages, or a page's text; each is shown to the judge cut at 10,000 characters) and commit them.
    references:
      good: ${flow(facts.references.good)}
      bad: ${flow(facts.references.bad)}
    repeats: 3
    timeout: 10m

messages:
  max_bytes: 16384
progress:
  max_bytes: 8192
`;
}
