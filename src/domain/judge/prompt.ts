// The judge's fixed prompt: org's, never the repo's, so no candidate can soften what its judge is asked.

/** A file as the judge is shown it: its path in the repo and its text, cut to a size an argv can carry. */
export interface ShownFile {
  path: string;
  text: string;
}

/** What is judged: the candidate's checkout (the judge's working folder), or one reference at calibration. */
export type JudgedWork =
  | { kind: "checkout"; commit: string; gates: string[] }
  | { kind: "reference"; file: ShownFile };

export interface JudgePromptInput {
  rubric: ShownFile;
  weights: Readonly<Record<string, number>>;
  references: { good: ShownFile[]; bad: ShownFile[] };
  work: JudgedWork;
}

// An argv string is at most 128 KiB on Linux: every file is cut well below, and the references are few.
const MAX_FILE_CHARS = 10_000;

/** The whole prompt: the rubric, the references as anchors, the work, and "this work is flawed: find where". */
export function renderJudgePrompt(input: JudgePromptInput): string {
  const dimensions = Object.entries(input.weights).map(([name, weight]) => `- ${name} (weight ${weight})`);
  const example = Object.fromEntries(Object.keys(input.weights).map((name) => [name, 0.5]));
  return [
    "You are the judge of a piece of work. This work is flawed: find where. Your job is to prove it falls short of",
    "the rubric, not to praise it. Score it on each dimension from 0 (fails the dimension) to 1 (nothing to fault).",
    "",
    "## The rubric",
    fence(input.rubric),
    "",
    "## The dimensions and their weights",
    ...dimensions,
    "",
    "## References that set your scale",
    ...input.references.good.map((file) => `### Good work (scores high): ${file.path}\n${fence(file)}`),
    ...input.references.bad.map((file) => `### Bad work (scores low): ${file.path}\n${fence(file)}`),
    "",
    "## The work to judge",
    describeWork(input.work),
    "",
    "## Your answer",
    "Answer with one JSON object, the last thing you write, scoring every dimension above and no other:",
    JSON.stringify({ scores: example, reason: "one paragraph: where the work falls short of the rubric, and why" }),
  ].join("\n");
}

function describeWork(work: JudgedWork): string {
  if (work.kind === "reference") return `The work is ${work.file.path}:\n${fence(work.file)}`;
  const gates = work.gates.length > 0
    ? ` Its gates (${work.gates.join(", ")}) passed; what they saved (reports, screenshots) is in the checkout too.`
    : "";
  return [
    `The work is the repository checked out in your current folder, at commit ${work.commit}. Read its files; you`,
    `cannot change them.${gates}`,
  ].join("\n");
}

function fence(file: ShownFile): string {
  const cut = file.text.length > MAX_FILE_CHARS;
  const text = cut ? `${file.text.slice(0, MAX_FILE_CHARS)}\n… (cut at ${MAX_FILE_CHARS} characters)` : file.text;
  return `\`\`\`\n${text.replace(/```/g, "ʼʼʼ")}\n\`\`\``;
}
