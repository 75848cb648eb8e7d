import type { SandboxConfig } from "../config/index.js";
import type { Check } from "../views/doctor-checks.js";

/** Whether bubblewrap can sandbox a program on this machine, as src/adapters/probes/sandbox.ts found. */
export type SandboxProbe =
  | { kind: "works"; bwrap: string }
  | { kind: "unavailable"; reason: string; fix: string }
  /**
   * Root where bwrap cannot make a user namespace: its sandbox would keep every capability,
   * and an agent with them undoes it.
   */
  | { kind: "privileged"; bwrap: string; reason: string; fix: string };

/** Whether this org's agents run sandboxed, and why not when they do not. */
export type SandboxDecision =
  | { kind: "on"; bwrap: string }
  | { kind: "off"; reason: string }
  /** Wanted by default but impossible here: agents run unsandboxed, with this warning. */
  | { kind: "unavailable"; warning: string }
  /** sandbox.enabled: true where bwrap does not work: `org up` refuses. */
  | { kind: "refused"; reason: string };

/** The sandbox org.yaml asks for, against what the machine can do: on by default where bwrap works. */
export function decideSandbox(setting: SandboxConfig | undefined, probe: SandboxProbe): SandboxDecision {
  if (setting?.enabled === false) return { kind: "off", reason: "sandbox.enabled is false in org.yaml" };
  if (probe.kind === "works") return { kind: "on", bwrap: probe.bwrap };
  // Neither a sandbox with capabilities (it only looks like one) nor silently none: the person decides.
  if (probe.kind === "privileged") {
    return {
      kind: "refused",
      reason: `${probe.reason}, and an agent keeping root's capabilities can remount the org read-write `
        + `— ${probe.fix}, or set sandbox: { enabled: false } in org.yaml to run agents unsandboxed on purpose`,
    };
  }
  if (setting?.enabled === true) {
    return {
      kind: "refused",
      reason: `sandbox.enabled is true in org.yaml, but ${probe.reason} — ${probe.fix}, or set `
        + `sandbox: { enabled: false }`,
    };
  }
  return {
    kind: "unavailable",
    warning: `agents run WITHOUT a sandbox: ${probe.reason}, so each one may write every file of the org (results, `
      + `other agents' worktrees, the repo's .git) — ${probe.fix}, `
      + `or set sandbox: { enabled: false } in org.yaml to run them unsandboxed on purpose`,
  };
}

/** `org doctor`'s line: bwrap, whether it works here, and what that means for this org's agents. */
export function checkSandbox(decision: SandboxDecision, probe: SandboxProbe): Check {
  const fix = probe.kind === "works" ? undefined : probe.fix;
  const why = probe.kind === "works" ? "" : probe.reason;
  switch (decision.kind) {
    case "on":
      return { name: "bwrap", status: "ok", detail: `${decision.bwrap} works: every agent runs in its sandbox` };
    case "off":
      return {
        name: "bwrap",
        status: "warn",
        detail: `${probe.kind === "works" ? `${probe.bwrap} works, but ` : ""}${decision.reason}: `
          + `agents run unsandboxed`,
        fix: "remove sandbox.enabled: false from org.yaml",
      };
    case "unavailable":
      return { name: "bwrap", status: "warn", detail: `${why}: agents run unsandboxed`, ...(fix ? { fix } : {}) };
    case "refused":
      return {
        name: "bwrap",
        status: "fail",
        detail: `${why}${probe.kind === "privileged" ? "" : ", and sandbox.enabled is true"}: org up refuses`,
        ...(fix ? { fix } : {}),
      };
  }
}
