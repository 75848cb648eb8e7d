import type { ScreenState } from "./screen-state.js";

/** Who is blocked and where its CLI keeps its config: what a fix must name. */
export interface FixContext {
  agent: string;
  runtime: string;
  program: string;
  /** The agent's own config folder (CLAUDE_CONFIG_DIR, CODEX_HOME…), or null. */
  home: string | null;
  homeEnv: string | null;
}

/** The exact thing a person does to unblock the agent; org never types it for them. */
export function describeFix(state: ScreenState, ctx: FixContext): string {
  const inHome = ctx.home && ctx.homeEnv ? `${ctx.homeEnv}=${ctx.home} ` : "";
  switch (state.kind) {
    case "login-required":
      return `log in once for this agent: run \`${inHome}${ctx.program}\` and sign in (or \`org attach ${ctx.agent}\` `
        + `and sign in there), or export its API key in your shell and name it under runtimes.${ctx.runtime}.pass_env `
        + `(secrets never go in org.yaml)`;
    case "key-refused":
      return `${ctx.program}'s model service refused its key (401): export a valid key in your shell and name it under `
        + `runtimes.${ctx.runtime}.pass_env (or fix the service URL under runtimes.${ctx.runtime}.env), `
        + `then restart ${ctx.agent}`;
    case "service-error":
      return `${ctx.program}'s model service keeps failing on its side (a server error, not a login or key problem): `
        + `check the provider's status page, or the service URL under runtimes.${ctx.runtime}.env; `
        + `org nudges ${ctx.agent} to try again after runtimes.${ctx.runtime}.nudge_after`;
    case "offline":
      return `this machine cannot reach ${ctx.program}'s service: fix the network or set HTTPS_PROXY under `
        + `runtimes.${ctx.runtime}.env, then restart ${ctx.agent}`;
    case "refused":
      if (state.refusal === "headless") return `${ctx.program} takes its pane for a headless run (CI=true or `
        + `GITHUB_ACTIONS=true reaches it) and will not ask to trust the folder: set CI: "false" and GITHUB_ACTIONS: `
        + `"false" under runtimes.${ctx.runtime}.env, or leave runtimes.${ctx.runtime}.trust out to keep the `
        + `preset's flag that trusts it`;
      return `run org as a non-root user, or inside a sandbox set IS_SANDBOX: "1" under runtimes.${ctx.runtime}.env, `
        + `or drop the flag with runtimes.${ctx.runtime}.unattended: []`;
    case "trust-dialog":
      return `answer the dialog: \`org attach ${ctx.agent}\`, `
        + `or let org answer it with runtimes.${ctx.runtime}.answer_trust: true`;
    default:
      return `look at the pane: \`org attach ${ctx.agent}\``;
  }
}
