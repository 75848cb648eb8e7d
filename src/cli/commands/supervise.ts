import { processRunner, type Runner } from "../../adapters/process.js";
import { runSupervisor } from "../../adapters/supervisor.js";

export interface SuperviseOptions {
  /** Absolute state directory, as `org up` wrote it into the pane command. */
  state: string;
  agent: string;
  runner?: Runner;
  env?: NodeJS.ProcessEnv;
}

/** `org supervise <agent>`: the loop each agent's tmux pane runs. Resolves to the process exit status. */
export async function runSupervise(opts: SuperviseOptions): Promise<number> {
  const env = opts.env ?? process.env;
  return runSupervisor({
    state: opts.state,
    agent: opts.agent,
    log: (line) => console.log(line),
    setPaneStatus: createPaneStatusSetter(opts.runner ?? processRunner, env.TMUX_PANE),
  });
}

/** Sets the `@org_status` option of our own pane; tmux finds the server through $TMUX. Outside tmux, nothing to set. */
export function createPaneStatusSetter(runner: Runner, pane: string | undefined): ((status: string) => Promise<void>) | undefined {
  if (!pane) return undefined;
  return async (status) => {
    await runner.run(["tmux", "set-option", "-p", "-t", pane, "@org_status", status], { timeoutMs: 5000 });
  };
}
