// `org init`'s guess: org.yaml's fields from what the repo holds and what this machine has, each with its reason.
import { findConstants, type StarterFields } from "../../roles/index.js";
import { detectProject, type ProjectGuess } from "./detect-project.js";
import { findMetric, type MetricGuess } from "./detect-metric.js";
import { describeIdleBaseline, pickRuntime } from "./pick-runtime.js";
import { SHARED_FOLDERS, type RepoListing } from "./repo-listing.js";

/** The fields to write, what the guess rests on, and what a person should look at before `org up`. */
export interface OrgProposal {
  fields: StarterFields;
  project: ProjectGuess;
  metric?: MetricGuess;
  /** `what — what to do` lines: the parts the guess could not settle. */
  checks: string[];
  /** Short reasons for the runtime and gpus picked, for the summary. */
  why: { runtime: string; gpus: string };
}

const MAX_GPU_AGENTS = 8;
const FILL_COMMAND = "fill in: the argv that runs one experiment and prints its metric, e.g. [python3, train.py].";
const FILL_METRIC = "fill in: the name your run prints as `name: value`, a pattern capturing the value, and a goal.";

export function proposeOrg(listing: RepoListing): OrgProposal {
  const project = detectProject(listing);
  const metric = findMetric(project.metricSources, listing.texts);
  const edits = orderByConstants(project.edits, listing.texts);
  const gpu = listing.gpus > 0 && project.kind === "python-train";
  const share = SHARED_FOLDERS.filter((folder) => listing.untracked.includes(folder));
  const runtime = pickRuntime(listing, edits);
  const noGpu = listing.gpuNote ?? "nvidia-smi lists none";
  const fields: StarterFields = {
    name: nameOrg(listing.folder),
    base: listing.base,
    gpus: listing.gpus > 0 ? "auto" : "none",
    gpusNote: listing.gpus > 0
      ? `guessed: nvidia-smi lists ${listing.gpus} GPU${listing.gpus === 1 ? "" : "s"}; auto leases them all.`
      : `guessed: no GPU here (${noGpu}): CPU mode. Or list GPU indices, [0, 1].`,
    share,
    shareNote: share.length > 0 ? `guessed: ${share.join(" and ")} untracked here.` : "",
    runtimes: runtime.entries,
    runtime: runtime.name,
    runtimeNote: runtime.note,
    count: gpu ? Math.min(listing.gpus, MAX_GPU_AGENTS) : 2,
    gpu,
    edits,
    editsNote: edits.length > 0 ? `guessed: ${project.editsWhy}.` : "fill in: the files agents may change: [solve.py]",
    command: project.command,
    commandNote: project.command.length > 0 ? `guessed: ${project.reason}.` : FILL_COMMAND,
    protected: project.protected,
    protectedNote: project.protected.length > 0 ? `guessed: ${project.protectedWhy}.` : "",
    metric: {
      name: metric?.name ?? "",
      pattern: metric?.pattern ?? "",
      goal: metric?.goal ?? "",
      note: describeMetric(metric),
    },
    memory: metric?.memory ?? "",
  };
  const checks = [...listChecks(fields, project, metric), ...(runtime.works ? [] : [describeIdleBaseline(edits)])];
  const why = { runtime: runtime.why, gpus: listing.gpus > 0 ? `${listing.gpus} found` : `CPU mode: ${noGpu}` };
  return { fields, project, ...(metric ? { metric } : {}), checks, why };
}

function describeMetric(metric: MetricGuess | undefined): string {
  if (!metric) return FILL_METRIC;
  const others = metric.others.length > 0 ? ` (it also prints ${metric.others.slice(0, 4).join(", ")})` : "";
  const goal = metric.goal ? `; ${metric.goal} by its name` : "; fill in the goal: minimize or maximize";
  return `guessed: ${metric.file} prints ${metric.name}${others}${goal}.`;
}

function listChecks(fields: StarterFields, project: ProjectGuess, metric: MetricGuess | undefined): string[] {
  const checks: string[] = [];
  if (fields.command.length === 0) {
    checks.push(`verify.command: ${project.reason} — write the argv that runs one experiment and prints its metric`);
  }
  if (!metric) {
    checks.push("verify.metric: nothing here prints `name: value` — "
      + "make the run print one line such as `score: 0.93`, then write its name, pattern and goal");
  } else if (!metric.goal) {
    checks.push(`verify.metric.goal: is a higher ${metric.name} better? — write maximize, or minimize for lower`);
  }
  if (fields.edits.length === 0) {
    checks.push("roles.researcher.edits: no code file found — list the files agents may change");
  }
  if (fields.protected.length === 0 && fields.command.length > 0 && metric) {
    checks.push(`verify.protected is empty: ${metric.file} both runs and prints ${metric.name}, `
      + "so an agent could print any number — move the scoring into a file of its own and list it");
  }
  return checks;
}

// The file with the most constants first: the built-in baseline tunes the first plain file of edits.
function orderByConstants(edits: string[], texts: Record<string, string>): string[] {
  const count = (file: string) => findConstants(texts[file] ?? "").length;
  return [...edits].sort((a, b) => count(b) - count(a));
}

// The folder's name in the safe alphabet of org names; "research" when nothing of it is left.
function nameOrg(folder: string): string {
  const name = folder.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^[-_]+|-+$/g, "").slice(0, 40);
  return name === "" ? "research" : name;
}
