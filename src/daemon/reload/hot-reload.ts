import { isAbsolute, join, resolve } from "node:path";
import { reloadSettings, type LoadedConfig } from "../../domain/config/index.js";
import { orgPaths } from "../../domain/paths.js";
import { describeAction } from "../../domain/reconcile/index.js";
import type { World } from "../../domain/world.js";
import { ConfigWatcher } from "../../adapters/fs/config-watcher.js";
import { watchDir } from "../../adapters/fs/files.js";
import { applyMetaEdit, type MetaReply } from "../../flows/reload/meta-edit.js";
import { answerMetaRequest, listMetaRequests, requestsDir } from "../../flows/reload/requests.js";
import { reloadOrg, type ReloadOutcome } from "../../flows/reload/reload-org.js";
import { ensureDir } from "../../adapters/fs/dir.js";

type ReadConfig = () => Promise<{ loaded: LoadedConfig } | { problems: string[] }>;

const BUSY_RETRY_MS = 250;

export interface HotReloadOptions {
  root: string;
  world: World;
  readConfig: ReadConfig;
  /** A line for the control pane's feed. */
  say: (line: string) => void;
}

/**
 * The daemon's hot reload: a save of org.yaml or a prompt is validated and applied (one at a time, in
 * order), and meta agents' proposals are served. Nothing here ever leaves a half-applied org behind:
 * every change goes through reloadOrg under state/up.lock.
 */
export class HotReload {
  private readonly paths;
  private readonly watcher: ConfigWatcher;
  private queue: Promise<void> = Promise.resolve();
  private unwatchRequests: () => void = () => undefined;
  private serving = false;
  private stopped = false;
  private watchOn = true;
  private prompts: string[] = [];

  constructor(private readonly opts: HotReloadOptions) {
    this.paths = orgPaths(opts.root);
    this.watcher = new ConfigWatcher(() => this.enqueue(() => this.reloadFromDisk()));
  }

  async start(read: { loaded: LoadedConfig } | { problems: string[] }): Promise<void> {
    this.follow(read);
    await ensureDir(requestsDir(this.paths.state));
    this.unwatchRequests = watchDir(requestsDir(this.paths.state), () => this.tick());
    // A save between `org up` reading org.yaml and this watcher starting would otherwise go unseen.
    this.enqueue(() => this.reloadFromDisk());
  }

  /** Serve proposals a missed file event left waiting; called by the daemon's loop. */
  tick(): void {
    if (this.serving || this.stopped) return;
    this.serving = true;
    this.enqueue(async () => {
      this.serving = false;
      for (const request of await listMetaRequests(this.paths.state)) {
        const reply = await this.retryWhileBusy(async () => {
          // An error still answers: the agent's `org reload` would otherwise wait for a reply forever.
          const config = await this.opts.readConfig();
          const failed = (error: Error): MetaReply => ({ outcome: "rejected", lines: [error.message] });
          const answer = await applyMetaEdit(this.opts.world, this.opts.root, request.agent, config).catch(failed);
          return answer.outcome === "busy" ? undefined : answer;
        });
        if (!reply) return;
        await answerMetaRequest(this.paths.state, request, reply);
        this.report(`meta edit by ${request.agent}`, reply);
      }
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.watcher.close();
    this.unwatchRequests();
    await this.queue;
  }

  private enqueue(task: () => Promise<void>): void {
    this.queue = this.queue.then(task).catch((error: Error) => this.opts.say(`reload: ${error.message}`));
  }

  // With reload.watch false the edit is only planned: the feed says what waits for `org reload`.
  private async reloadFromDisk(): Promise<void> {
    const read = await this.opts.readConfig();
    this.follow(read);
    const apply = this.watchOn;
    const outcome = await this.retryWhileBusy(async () => {
      const result = await reloadOrg(this.opts.world, { root: this.opts.root, read, by: "daemon", apply });
      return result.kind === "busy" ? undefined : result;
    });
    if (outcome?.kind === "planned")
      this.opts.say(
        `org.yaml differs from the running org by ${outcome.actions.length} actions; reload.watch is false: ` +
          `\`org reload\` applies them`,
      );
    else if (outcome) this.reportOutcome(outcome);
  }

  // Watch org.yaml and the prompts the last valid config names; an invalid one keeps the old set.
  private follow(read: { loaded: LoadedConfig } | { problems: string[] }): void {
    const orgYaml = join(this.opts.root, "org.yaml");
    if ("problems" in read) {
      this.watcher.watch([orgYaml, ...this.prompts]);
      return;
    }
    const { config, dir } = read.loaded;
    this.watchOn = reloadSettings(config).watch;
    this.prompts = Object.values(config.roles).map((role) =>
      isAbsolute(role.prompt) ? role.prompt : resolve(dir, role.prompt),
    );
    this.watcher.watch([orgYaml, ...this.prompts]);
  }

  private async retryWhileBusy<T>(attempt: () => Promise<T | undefined>): Promise<T | undefined> {
    while (!this.stopped) {
      const result = await attempt();
      if (result !== undefined) return result;
      await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
    }
    return undefined;
  }

  private reportOutcome(outcome: ReloadOutcome): void {
    if (outcome.kind === "rejected")
      this.opts.say(`org.yaml edit rejected; the org runs as before:\n${outcome.problems.join("\n")}`);
    if (outcome.kind !== "applied") return;
    this.opts.say(`reloaded org.yaml:\n${outcome.actions.map(describeAction).join("\n")}`);
    for (const warning of outcome.warnings) this.opts.say(`warning: ${warning}`);
  }

  private report(what: string, reply: MetaReply): void {
    if (reply.outcome === "applied" || reply.outcome === "rejected")
      this.opts.say(`${what} ${reply.outcome}:\n${reply.lines.join("\n")}`);
  }
}
