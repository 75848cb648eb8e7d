import type { Problem } from "./locate.js";
import { formatPath } from "./messages.js";
import { asMap, type Raw } from "./raw.js";

// sbatch arguments org sets itself, each with the org.yaml key (or the reason) that owns it.
const OWNED: { flags: string[]; owner: string }[] = [
  { flags: ["--partition", "-p"], owner: "set slurm.partition instead" },
  { flags: ["--account", "-A"], owner: "set slurm.account instead" },
  { flags: ["--time", "-t"], owner: "set slurm.time_limit instead" },
  { flags: ["--job-name", "-J", "--comment"], owner: "remove it; org names and tags its jobs to find exactly its own" },
  {
    flags: ["--gres", "--gpus", "-G", "--gpus-per-node", "--gpus-per-task"],
    owner: "remove it; org asks for one GPU per agent of a role with gpu: true",
  },
  {
    flags: ["--wrap", "--parsable", "--output", "-o", "--error", "-e", "--export", "--chdir", "-D", "--array", "-a"],
    owner: "remove it; org sets it for every agent job",
  },
];

// Slurm's time formats: minutes, M:S, H:M:S, D-H, D-H:M, D-H:M:S; or no limit.
const TIME = /^(\d+|\d+:\d{1,2}|\d+:\d{1,2}:\d{1,2}|\d+-\d{1,2}(:\d{1,2}){0,2}|UNLIMITED|INFINITE|unlimited|infinite)$/;
// A partition or account: sbatch takes a comma-separated list of names.
const NAMES = /^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$/;

function checkTime(path: string[], time: unknown): Problem[] {
  if (typeof time !== "string" || time === "" || TIME.test(time)) return [];
  const fix = 'write minutes ("90"), H:MM:SS ("4:00:00"), D-HH:MM:SS ("1-00:00:00") or UNLIMITED';
  return [{ path, message: `${formatPath(path)} "${time}" is not a Slurm time`, fix }];
}

/** The slurm section: owned flags, time format, names; and gpus, which Slurm assigns under backend: slurm. */
export function checkSlurm(raw: Raw): Problem[] {
  const problems: Problem[] = [];
  if (raw.backend === "slurm" && Array.isArray(raw.gpus)) {
    problems.push({
      path: ["gpus"],
      message: "gpus lists GPU indices, but with backend: slurm Slurm assigns each agent's GPU",
      fix: "remove gpus, or set backend: local",
    });
  }
  const slurm = asMap(raw.slurm);
  if (!slurm) return problems;
  for (const key of ["partition", "account"]) {
    const value = slurm[key];
    if (typeof value === "string" && value !== "" && !NAMES.test(value)) {
      problems.push({
        path: ["slurm", key],
        message: `${formatPath(["slurm", key])} "${value}" is not a Slurm ${key} name`,
        fix: `use letters, digits, '_', '-' or '.', several separated by commas, e.g. "gpu"`,
      });
    }
  }
  problems.push(...checkTime(["slurm", "time_limit"], slurm.time_limit));
  const roles = Object.keys(asMap(raw.roles) ?? {});
  for (const [role, time] of Object.entries(asMap(slurm.role_time_limits) ?? {})) {
    const path = ["slurm", "role_time_limits", role];
    if (!roles.includes(role)) {
      problems.push({ path, message: `${formatPath(path)} names no role`, fix: `use one of: ${roles.join(", ")}` });
    }
    problems.push(...checkTime(path, time));
  }
  const args = Array.isArray(slurm.sbatch_args) ? slurm.sbatch_args : [];
  args.forEach((arg, index) => {
    if (typeof arg !== "string") return;
    const owned = OWNED.find(({ flags }) =>
      flags.some((flag) => arg === flag || arg.startsWith(flag.startsWith("--") ? `${flag}=` : flag)));
    if (!owned) return;
    const path = ["slurm", "sbatch_args", index];
    problems.push({ path, message: `${formatPath(path)} "${arg}" is set by org`, fix: owned.owner });
  });
  return problems;
}
