import { runKeeper as keep } from "../../daemon/keeper-loop.js";

/** `org keeper --root <dir>` (hidden): restarts the org's daemon when it dies, until `org down`; started detached. */
export async function runKeeper(opts: { root: string }): Promise<number> {
  return keep({ root: opts.root });
}
