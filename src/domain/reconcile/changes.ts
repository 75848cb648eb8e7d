import type { DesiredAgent, ObservedAgent } from "./org-states.js";

// The GPU lease is reported once, as a lease; its CUDA_VISIBLE_DEVICES is not a second change.
const LEASE_ENV = "CUDA_VISIBLE_DEVICES";
const POLICY_KEYS = ["backoffMs", "maxBackoffMs", "maxRestarts", "healthyAfterMs"] as const;

/** Why a running agent must restart to match org.yaml, one phrase per change; empty when it matches. */
export function describeChanges(observed: ObservedAgent, desired: DesiredAgent): string[] {
  const changes: string[] = [];
  const was = observed.record;
  if (was.gpu !== desired.gpu) changes.push(`GPU lease ${was.gpu ?? "cpu"} → ${desired.gpu ?? "cpu"}`);
  const launch = observed.launch;
  if (launch === null) {
    changes.push("launch.json is missing or unreadable");
  } else {
    const next = desired.launch;
    if (!sameList(launch.argv, next.argv)) changes.push("command changed");
    if (launch.cwd !== next.cwd) changes.push(`working directory ${launch.cwd} → ${next.cwd}`);
    const keys = [...new Set([...Object.keys(launch.env), ...Object.keys(next.env)])].filter((key) =>
      key !== LEASE_ENV && launch.env[key] !== next.env[key]);
    if (keys.length > 0) changes.push(`environment changed (${keys.sort().join(", ")})`);
    if (launch.restart !== next.restart) changes.push(`restart policy ${launch.restart} → ${next.restart}`);
    if (POLICY_KEYS.some((key) => launch[key] !== next[key])) changes.push("supervisor settings changed");
  }
  if (observed.prompt === null) changes.push("prompt.md is missing");
  else if (observed.prompt !== desired.prompt) changes.push("prompt changed");
  // A renamed runtime that starts the very same program is no reason to interrupt the agent.
  if (changes.length > 0 && was.runtime !== desired.runtime) {
    changes.unshift(`runtime ${was.runtime} → ${desired.runtime}`);
  }
  return changes;
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}
