import type { LoadedConfig, OrgConfig } from "../../domain/config/index.js";
import type { OrgPaths } from "../../domain/paths.js";
import type { OrgRecord } from "../../domain/state.js";
import { parseOrgRecordText } from "../../domain/lifecycle/org-record-file.js";
import { readTextNow } from "../../adapters/fs/read-now.js";
import { reloadFile } from "../../flows/reload/reload-log.js";

interface Verifier {
  tick(now: Date): Promise<void>;
  drain(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The daemon's verifier, kept in step with reloads: when the agents or their edits change, the old loop
 * finishes its runs in flight (none is started meanwhile) and a new one takes over. The verify section
 * stays the one the verifier started with — experiments are judged one way for the life of the org.
 */
export class VerifierHandle {
  private current: Verifier | undefined;
  private swapping: Promise<void> | undefined;
  private verify: OrgConfig["verify"];
  private settled = false;
  private key = "";
  private warned = "";
  private seen = "";

  constructor(
    private readonly paths: OrgPaths,
    private readonly start: (record: OrgRecord, config: OrgConfig) => Verifier,
    private readonly readConfig: () => Promise<{ loaded: LoadedConfig } | { problems: string[] }>,
    private readonly say: (line: string) => void,
  ) {}

  /** Whether experiments are being judged (a valid org.yaml with a verify section was seen). */
  get active(): boolean {
    return this.current !== undefined || this.swapping !== undefined;
  }

  /**
   * What one agent may have queued, under the verify section the verifier judges by; submits read it from daemon.json.
   */
  get queuePerAgent(): number | undefined {
    return this.verify?.queue_per_agent;
  }

  /**
   * The verify section experiments are judged by, for the daemon's other services: the one handed at start (or
   * the first valid one), never a later edit; until one is settled, what org.yaml says.
   */
  judgedVerify(live: OrgConfig["verify"]): OrgConfig["verify"] {
    return this.settled ? this.verify : live;
  }

  /** Start with the org and config the daemon started with: its verify section is the one judged by from then on. */
  async begin(record: OrgRecord, config: OrgConfig | undefined): Promise<void> {
    this.seen = await this.readMarks();
    if (config) this.follow(record, config);
  }

  async tick(now: Date): Promise<void> {
    const marks = await this.readMarks();
    if (marks !== this.seen) {
      this.seen = marks;
      const read = await this.readConfig();
      const record = parseOrgRecordText(marks.split("\0")[0]);
      if (record && "loaded" in read) this.follow(record, read.loaded.config);
    }
    if (!this.swapping) await this.current?.tick(now);
  }

  async stop(): Promise<void> {
    await this.swapping;
    await this.current?.stop();
  }

  private follow(record: OrgRecord, config: OrgConfig): void {
    // The first valid config fixes how experiments are judged, verify or none, until the next `org up`.
    if (!this.settled) [this.verify, this.settled] = [config.verify, true];
    // verify.gpus is applied by the reload itself, as leases and the pool in org.json.
    const verify = JSON.stringify(withoutGpus(config.verify)) ?? "";
    if (verify !== (JSON.stringify(withoutGpus(this.verify)) ?? "") && verify !== this.warned) {
      this.warned = verify;
      this.say(
        "org.yaml's verify section changed: the verifier keeps judging as it started — `org down && org up` applies it",
      );
    }
    if (!this.verify) return;
    const key = JSON.stringify([
      record.agents.map(({ name, branch, worktree, gpu }) => [name, branch, worktree, gpu]),
      Object.entries(config.roles).map(([role, spec]) => [role, spec.edits]),
      record.pool,
    ]);
    if (key === this.key) return;
    this.key = key;
    const next = { ...config, verify: this.verify };
    const old = this.current;
    this.current = undefined;
    this.swapping = (old?.drain() ?? Promise.resolve()).then(() => {
      this.current = this.start(record, next);
      this.swapping = undefined;
    });
  }

  // org.json changes with the agents; reload.json with every applied reload (a role's edits change no record).
  // Read at once every tick: two small files of org's own, where the thread pool's round trips cost more.
  private async readMarks(): Promise<string> {
    const [record, reload] = await Promise.all([
      readTextNow(this.paths.orgFile), readTextNow(reloadFile(this.paths.state)),
    ]);
    return `${record ?? ""}\0${reload ?? ""}`;
  }
}

function withoutGpus(verify: OrgConfig["verify"]): Omit<NonNullable<OrgConfig["verify"]>, "gpus"> | undefined {
  if (!verify) return undefined;
  const { gpus: _, ...rest } = verify;
  return rest;
}
