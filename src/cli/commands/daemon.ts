import * as daemon from "../../daemon/index.js";
import { renderStatus } from "../../ui/status-table.js";

/** `org daemon --root <dir>` (hidden): the daemon's services, its control pane drawn with the status table. */
export async function runDaemon(opts: { root: string }): Promise<number> {
  return daemon.runDaemon({ root: opts.root, renderStatus });
}
