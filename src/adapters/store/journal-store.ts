import { open, stat } from "node:fs/promises";
import { describeJournalChange, type Incident } from "../../domain/experiments/incident.js";
import {
  formatEntry, hashText, journalPath, readChain, sealEntry, type ChainRead, type JournalDraft, type JournalEntry,
} from "../../domain/experiments/journal.js";
import { appendLines, readText, writeFileAtomic } from "../fs/files.js";
import { readFrontier } from "./frontier-file.js";
import { readResultsText } from "./results-file.js";

/**
 * state/journal.jsonl as it stands, its chain checked entry by entry (each through the entry schema); undefined when
 * the org has none (an older org). For readers outside the daemon, which holds its own copy in a JournalStore.
 */
export async function readJournalChain(state: string): Promise<ChainRead | undefined> {
  const text = await readText(journalPath(state));
  return text === undefined ? undefined : readChain(text);
}

/** What a holder of the journal may do while no one else appends: read the entries, append one. */
export interface JournalTx {
  readonly entries: readonly JournalEntry[];
  append(draft: JournalDraft): Promise<JournalEntry>;
}

/**
 * The daemon's journal: the whole chain in memory, appended one entry at a time. Before each append and on each audit
 * the file is checked against that copy (two stats and its last line when untouched); any change is put back and told.
 */
export class JournalStore {
  private readonly file: string;
  private entries: JournalEntry[] = [];
  private text = "";
  private stamp = "";
  private opened: Promise<void> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private found: Incident[] = [];

  constructor(private readonly state: string) {
    this.file = journalPath(state);
  }

  /** Run `work` alone: appends, audits and the writes they guard never interleave. */
  exclusive<T>(work: (tx: JournalTx) => Promise<T>): Promise<T> {
    const run = async () => {
      // A load that failed (a full disk) is tried again by the next caller rather than remembered.
      await (this.opened ??= this.load().catch((error: unknown) => {
        this.opened = undefined;
        throw error;
      }));
      // The same array throughout: appends push onto it.
      return work({ entries: this.entries, append: (draft) => this.appendNow(draft) });
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The entries so far, once no append is in flight. */
  read(): Promise<readonly JournalEntry[]> {
    return this.exclusive(async (tx) => tx.entries);
  }

  /** Check the file against the daemon's copy: what was found since the last audit (open included). */
  audit(): Promise<Incident[]> {
    return this.exclusive(async () => {
      await this.checkFile();
      const found = this.found;
      this.found = [];
      return found;
    });
  }

  private async appendNow(draft: JournalDraft): Promise<JournalEntry> {
    await this.checkFile();
    const entry = sealEntry(this.entries.at(-1), draft, new Date());
    const line = formatEntry(entry);
    await appendLines(this.file, [line]);
    this.entries.push(entry);
    this.text += `${line}\n`;
    this.stamp = await this.readStamp();
    return entry;
  }

  // Untouched since our last write: same size and time, and the same last line. Anything else is compared whole.
  private async checkFile(): Promise<void> {
    const stamp = await this.readStamp();
    if (stamp === this.stamp && (await this.readTail()) === this.lastLine()) return;
    const found = (await readText(this.file)) ?? "";
    if (found !== this.text) {
      const evidence = await this.keepEvidence(found);
      await writeFileAtomic(this.file, this.text);
      this.found.push({
        kind: "tampered", title: `the journal was changed by hand (found ${new Date().toISOString()})`,
        body: `${describeJournalChange(this.entries, readChain(found), found)}; the verifier put back its own copy `
          + `(the changed file is kept as ${evidence})`,
      });
    }
    this.stamp = await this.readStamp();
  }

  private async load(): Promise<void> {
    const text = await readText(this.file);
    if (text === undefined) return this.begin(true);
    const chain = readChain(text);
    this.entries = chain.entries;
    this.text = chain.text;
    if (chain.broken) {
      const evidence = await this.keepEvidence(text);
      this.found.push({
        kind: "tampered", title: `the journal breaks at line ${chain.broken.line}`,
        body: `${chain.broken.reason}; what follows is not the verifier's and was set aside as ${evidence}: rows `
          + `journaled only there count as tampered`,
      });
    } else if (chain.torn) {
      this.found.push({
        kind: "recovered", title: `a journal entry cut short after entry ${chain.entries.length - 1}`,
        body: "the daemon was killed while writing it, before doing what it announced: it was dropped, and that "
          + "request is answered again",
      });
    }
    if (chain.entries.length === 0) return this.begin(!chain.broken);
    if (text !== chain.text) await writeFileAtomic(this.file, chain.text);
    this.stamp = await this.readStamp();
  }

  // A new journal records what the org already holds: those rows are unjournaled legacy, that frontier the
  // one to guard.
  private async begin(vouch: boolean): Promise<void> {
    const text = await readResultsText(this.state);
    const complete = text.slice(0, text.lastIndexOf("\n") + 1);
    const frontier = (await readFrontier(this.state)) ?? null;
    // A journal broken at its first line vouches for nothing: no row before it is legacy then.
    const results = vouch
      ? { lines: complete.split("\n").length - 1, sha256: hashText(complete) }
      : { lines: 0, sha256: hashText("") };
    const genesis = sealEntry(
      undefined, { kind: "genesis", payload: { results, frontier: vouch ? frontier : null } }, new Date(),
    );
    this.entries = [genesis];
    this.text = `${formatEntry(genesis)}\n`;
    await writeFileAtomic(this.file, this.text);
    this.stamp = await this.readStamp();
  }

  private async keepEvidence(text: string): Promise<string> {
    const file = `${this.file}.tampered-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    await writeFileAtomic(file, text);
    return file;
  }

  private async readStamp(): Promise<string> {
    return stat(this.file).then((info) => `${info.size} ${info.mtimeMs} ${info.ino}`, () => "missing");
  }

  // From the entries, not the text: slicing a long appended string copies all of it.
  private lastLine(): string {
    const last = this.entries.at(-1);
    return last ? `${formatEntry(last)}\n` : "";
  }

  private async readTail(): Promise<string> {
    const bytes = Buffer.byteLength(this.lastLine());
    const handle = await open(this.file, "r").catch(() => undefined);
    if (!handle) return "";
    try {
      const { size } = await handle.stat();
      const buffer = Buffer.alloc(Math.min(bytes, size));
      await handle.read(buffer, 0, buffer.length, size - buffer.length);
      return buffer.toString("utf8");
    } finally {
      await handle.close();
    }
  }
}
