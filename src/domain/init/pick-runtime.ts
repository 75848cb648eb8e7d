// Which agent program the researchers run: the first agent CLI on PATH, else the built-in baseline.
import { findConstants } from "../../roles/index.js";
import { AGENT_CLIS, type RepoListing } from "./repo-listing.js";

export interface RuntimePick {
  name: string;
  /** `name: { … }` entries under runtimes. */
  entries: string[];
  note: string;
  /** Why, in a few words, for the summary. */
  why: string;
  /** False when the built-in baseline is picked but has no constant to tune. */
  works: boolean;
}

const HILLCLIMB = "hillclimb: { builtin: hillclimb, restart: on-failure }   # needs no API: tunes constants";

/** The built-in baseline stays one word away even when a CLI is picked: an org to try without a model API. */
export function pickRuntime(listing: RepoListing, edits: string[]): RuntimePick {
  const { programs, texts } = listing;
  const found = AGENT_CLIS.filter((cli) => programs.includes(cli));
  const tuned = edits[0] ?? "train.py";
  const hasKnobs = findConstants(texts[tuned] ?? "").length > 0;
  const first = found[0];
  if (first !== undefined) {
    const others = found.length > 1 ? ` (also: ${found.slice(1).join(", ")})` : "";
    return {
      name: first,
      entries: [presetEntry(first, listing.root === true), HILLCLIMB],
      note: `guessed: ${first} is on PATH${others}. Write hillclimb here to try the org without a model API.`,
      why: "found on PATH",
      works: true,
    };
  }
  const knobs = hasKnobs
    ? `the UPPER_CASE number constants of ${tuned}`
    : `UPPER_CASE number constants, and ${tuned} has none`;
  return {
    name: "hillclimb",
    entries: [HILLCLIMB],
    note: `guessed: no agent CLI (${AGENT_CLIS.join(", ")}) is on PATH: the built-in baseline, which tunes ${knobs}.`,
    why: "no agent CLI on PATH",
    works: hasKnobs,
  };
}

/** What to do when the baseline has nothing to tune. */
export function describeIdleBaseline(edits: string[]): string {
  const where = edits[0] ?? "edits";
  return `roles.researcher.runtime: hillclimb has no constant to tune in ${where} — `
    + `install an agent CLI (${AGENT_CLIS.join(", ")}) and write its name`;
}

// Agents run in org's sandbox, which is what IS_SANDBOX tells claude run as root.
function presetEntry(cli: string, root: boolean): string {
  if (cli === "claude" && root) {
    return 'claude: { preset: claude, env: { IS_SANDBOX: "1" } }   # as root, claude needs it';
  }
  return `${cli}: { preset: ${cli} }`;
}
