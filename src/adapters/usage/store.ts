import { formatLedgerLine, parseLedger } from "../../domain/usage/ledger.js";
import { usagePaths, writeUsageSummary } from "../../domain/usage/summary.js";
import { filesPort } from "../fs/files-port.js";
import type { UsageSummary } from "../../domain/usage/summary.js";
import type { UsageRecord } from "../../domain/usage/token-counts.js";
import type { FileCursor } from "./jsonl.js";
import { appendLines, readJson, readText, writeJsonAtomic } from "../fs/files.js";
import { isBoolean, isFields, isNumber, isOptional, isString } from "../../domain/json-fields.js";

/** Where reading stopped: per transcript file, and the stamp of opencode's database at its last read. */
export interface UsageCursors {
  files: Record<string, FileCursor>;
  opencodeStamp?: string;
}

const isContextValue = (value: unknown) =>
  value === undefined || isString(value) || isNumber(value) || isBoolean(value);

function isFileCursor(value: unknown): value is FileCursor {
  return isFields(value) && isNumber(value.offset) && isNumber(value.ino) && isNumber(value.lines)
    && isBoolean(value.known) && isFields(value.context) && Object.values(value.context).every(isContextValue)
    && isOptional(isString)(value.problem);
}

/** usage-cursors.json's JSON as cursors; undefined when it, or any file's cursor in it, is of another shape. */
function parseUsageCursors(value: unknown): UsageCursors | undefined {
  if (!isFields(value) || !isFields(value.files) || !isOptional(isString)(value.opencodeStamp)) return undefined;
  return Object.values(value.files).every(isFileCursor) ? (value as unknown as UsageCursors) : undefined;
}

/** One agent's usage files under state/agents/<agent>/: only the daemon writes them. */
export class UsageStore {
  private readonly paths;
  private ledgerEndsClean = true;

  constructor(private readonly state: string, private readonly agent: string) {
    this.paths = usagePaths(state, agent);
  }

  /**
   * The ledger's records, and where reading stopped; a cursor file missing, unparseable or of another shape reads as
   * none: the transcripts are read again from their start, and the ledger's ids keep that from counting twice.
   */
  async load(): Promise<{ records: UsageRecord[]; cursors: UsageCursors }> {
    const text = (await readText(this.paths.ledger).catch(() => undefined)) ?? "";
    this.ledgerEndsClean = text === "" || text.endsWith("\n");
    const cursors = parseUsageCursors(await readJson(this.paths.cursors).catch(() => undefined));
    return { records: parseLedger(text), cursors: cursors ?? { files: {} } };
  }

  /**
   * Appends first, then saves where reading stopped: a crash between the two re-reads lines the ledger already holds.
   */
  async save(records: UsageRecord[], cursors: UsageCursors): Promise<void> {
    // A line cut off by a crash is closed before the next one, so it stays one unparseable line.
    const lines = [...(this.ledgerEndsClean ? [] : [""]), ...records.map(formatLedgerLine)];
    await appendLines(this.paths.ledger, lines);
    if (lines.length > 0) this.ledgerEndsClean = true;
    await writeJsonAtomic(this.paths.cursors, cursors);
  }

  async writeSummary(summary: UsageSummary): Promise<void> {
    await writeUsageSummary(filesPort, this.state, this.agent, summary);
  }
}

/** The ledgers of these agents that have one, as `org results` and `org report` read them. */
export async function readLedgers(state: string, agents: string[]): Promise<Map<string, UsageRecord[]>> {
  const read = await Promise.all(
    [...new Set(agents)].map(async (agent) => [
      agent, await readText(usagePaths(state, agent).ledger).catch(() => undefined),
    ] as const),
  );
  return new Map(read.flatMap(([agent, text]) => (text === undefined ? [] : [[agent, parseLedger(text)] as const])));
}
