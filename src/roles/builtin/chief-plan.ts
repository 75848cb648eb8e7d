// The built-in chief's decision: which constant each junior works on, from what the org's ledger says each has given.

/**
 * What the chief reads of one judged experiment: the hillclimb's description ("LR 0.01 ->
 * 0.0125; …") and its verdict.
 */
export interface JudgedChange {
  description: string;
  status: "keep" | "discard" | "crash" | "reject" | "fail";
  /** Answered from the ledger without a run: not a keep, and a sign the constant's steps on this code are used up. */
  duplicate?: boolean;
}

export interface ConstantScore {
  name: string;
  tried: number;
  kept: number;
  /** Upper confidence bound on the keep rate: what it has given, plus a bonus that grows while nobody tries it. */
  score: number;
}

/** A junior's focus and why, for its task and the chief's pane. */
export interface Assignment {
  junior: string;
  focus: string;
  why: string;
}

const STEP = /(?:^|;\s*)([A-Z][A-Z0-9_]*) [^\s;]+ -> [^\s;]+/g;

/**
 * Each constant's tries and keeps among the judged changes (ledger answers count as tries);
 * rejects are not evidence.
 */
export function scoreConstants(constants: readonly string[], changes: readonly JudgedChange[]): ConstantScore[] {
  const tally = new Map(constants.map((name) => [name, { tried: 0, kept: 0 }]));
  let total = 0;
  for (const change of changes) {
    if (change.status === "reject") continue;
    const names = new Set([...change.description.matchAll(STEP)].map((match) => match[1]!));
    for (const name of names) {
      const entry = tally.get(name);
      if (!entry) continue;
      entry.tried++;
      if (change.status === "keep" && !change.duplicate) entry.kept++;
    }
    if (names.size > 0) total++;
  }
  return constants.map((name) => {
    const { tried, kept } = tally.get(name)!;
    const score = (kept + 1) / (tried + 2) + Math.sqrt((2 * Math.log(total + 1)) / (tried + 1));
    return { name, tried, kept, score };
  });
}

/**
 * One constant per junior, the highest scores first, a constant to two juniors only when there are more juniors than
 * constants. A junior whose constant is still among the chosen keeps it, so a task changes only when the ranking does.
 */
export function assignFocus(
  juniors: readonly string[], scores: readonly ConstantScore[], current: ReadonlyMap<string, string>,
): Assignment[] {
  if (scores.length === 0) return [];
  // Stable sort: equal scores keep the order of the source file.
  const ranked = [...scores].sort((a, b) => b.score - a.score);
  const chosen = juniors.map((_, index) => ranked[index % ranked.length]!);
  const open = [...chosen];
  const assigned = new Map<string, ConstantScore>();
  for (const junior of juniors) {
    const index = open.findIndex((score) => score.name === current.get(junior));
    if (index >= 0) assigned.set(junior, open.splice(index, 1)[0]!);
  }
  for (const junior of juniors) if (!assigned.has(junior)) assigned.set(junior, open.shift()!);
  return juniors.map((junior) => {
    const score = assigned.get(junior)!;
    const why = score.tried === 0 ? "never tried yet" : `kept ${score.kept} of ${score.tried} tried`;
    return { junior, focus: score.name, why };
  });
}

/** The task a junior gets: a line for the person reading it, and the `focus:` line the built-in junior follows. */
export function formatFocusTask(assignment: Assignment, file: string): string {
  return `Work on ${assignment.focus} in ${file} only (${assignment.why}); `
    + `leave the other constants to the others.\n\nfocus: ${assignment.focus}\n`;
}

/** The constants a task's `focus:` line names; none when it has no such line. */
export function parseFocus(task: string): string[] {
  const line = /^focus:[ \t]*(.+)$/m.exec(task)?.[1] ?? "";
  return line.split(",").map((name) => name.trim()).filter((name) => /^[A-Z][A-Z0-9_]*$/.test(name));
}
