import { findRunningKeeper, isKeeperProcess, isKeeperStopped } from "../adapters/keeper-process.js";
import { keeperEnv, readDaemonSecrets, startKeeper } from "../adapters/keeper-process.js";
import { isAlive } from "../adapters/process.js";
import { defineLoop } from "./loop-service.js";
import type { Service } from "./services.js";

// A keeper that died comes back within this: the daemon is what restarts it.
const WATCH_MS = 2000;

/** The daemon's half of the pair: it starts a keeper when none runs (after `org up`, a kill), not after `org down`. */
export function defineKeeperWatch(opts: {
  root: string;
  state: string;
  orgArgv: readonly string[];
  say: (line: string) => void;
}): Service {
  // The keeper this daemon started last: while it still boots (a second under load), no second one is started.
  let starting: number | undefined;
  // The keeper found last: while it runs, a look reads its /proc entry and nothing in state/.
  let found: number | undefined;
  return defineLoop({
    name: "keeper",
    periodMs: WATCH_MS,
    tick: async () => {
      if (found !== undefined && isKeeperProcess(found, opts.root)) return;
      if (await isKeeperStopped(opts.state)) return;
      found = await findRunningKeeper(opts.root, opts.state);
      if (found !== undefined) return;
      if (starting !== undefined && isAlive(starting)) return;
      // The keeper gets this daemon's own environment: the declared secrets, to hand to the daemon it restarts.
      const env = keeperEnv(process.env, readDaemonSecrets(process.env));
      starting = await startKeeper({ root: opts.root, state: opts.state, orgArgv: opts.orgArgv, env });
    },
    fail: (error) => opts.say(`keeper: could not start the daemon's keeper: ${error.message}`),
  });
}
