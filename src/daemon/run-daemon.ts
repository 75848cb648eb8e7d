import { orgPaths } from "../domain/paths.js";
import type { OrgSnapshot } from "../domain/views/snapshot.js";
import type { OrgRecord } from "../domain/state.js";
import { endLeftChildren } from "../adapters/child-records.js";
import { readOptionalRecord } from "../adapters/store/org-record.js";
import { pinGlobalGitConfig, snapshotGlobalGitConfig } from "../adapters/git/global-config.js";
import { Feed } from "./control-feed.js";
import { runServices } from "./services.js";
import { buildServices } from "./services-table.js";

// Our pane starts before `org up` writes org.json (the grid comes first); with 32 panes that takes seconds.
const ORG_FILE_WAIT_MS = 30_000;
const ORG_FILE_POLL_MS = 100;

/**
 * The control pane: every daemon service (supervisor, outbox broker, screens, verifier, notifier, reload, standups,
 * usage, table, heartbeat) until SIGTERM or SIGHUP.
 */
export async function runDaemon(opts: {
  root: string;
  renderStatus: (snapshot: OrgSnapshot) => string;
}): Promise<number> {
  const paths = orgPaths(opts.root);
  const record = await waitForOrgRecord(opts.root);
  if (!record) {
    process.stderr.write(`[org] no ${paths.orgFile}; run \`org up\`\n`);
    return 1;
  }
  // Before any run starts: a slot or GPU must never hold a run of ours next to one a killed daemon left. An agent's org
  // command it ran goes on (a submit waits for its verdict, from us now), as it would in the agent's pane.
  await endLeftChildren(paths, "the daemon", ["command"]);
  // The verifier's checkouts and judging read the global git config as it was at `org up`, never an agent's later edit.
  pinGlobalGitConfig(await snapshotGlobalGitConfig(paths.state, record.upAt));
  const feed = new Feed();
  const services = buildServices({ root: opts.root, paths, record, feed, renderStatus: opts.renderStatus });
  const stopping = new AbortController();
  const stop = () => stopping.abort();
  process.on("SIGTERM", stop);
  process.on("SIGHUP", stop);
  // Ctrl-C typed by a person in the control pane must not take the org's daemon down.
  process.on("SIGINT", () => feed.say("the daemon keeps running; stop the org with `org down`"));
  await runServices(services, stopping.signal);
  return 0;
}

async function waitForOrgRecord(root: string): Promise<OrgRecord | undefined> {
  let record = await readOptionalRecord(root);
  for (let waited = 0; !record && waited < ORG_FILE_WAIT_MS; waited += ORG_FILE_POLL_MS) {
    await new Promise((resolve) => setTimeout(resolve, ORG_FILE_POLL_MS));
    record = await readOptionalRecord(root);
  }
  return record;
}
