// What a verdict leaves behind once its run is judged: the ledger, the org best, the verdict files, the agent's reply,
// the daemon's log line, and the request cleared from the queue last.
import type { OrgConfig } from "../../domain/config/index.js";
import type { ExperimentRequest } from "../../domain/experiments/request.js";
import { formatVerdictMessage } from "../../domain/experiments/submit-reply.js";
import type { ExperimentOutcome, VerifierPort } from "../../domain/experiments/verifier-port.js";
import { readMessageSettings } from "../../domain/messages/mail-port.js";
import type { OrgRecord } from "../../domain/state.js";
import { writeLedger } from "../../adapters/store/agent-ledger.js";
import type { JournalStore } from "../../adapters/store/journal-store.js";
import { removeFromQueue } from "../../adapters/store/queue.js";
import { advanceFrontier } from "../../adapters/verifier/frontier-writer.js";
import { writeVerdictFile } from "../../adapters/verifier/verdict-file.js";

export interface VerdictHands {
  record: OrgRecord;
  config: OrgConfig;
  journal: JournalStore;
  port: VerifierPort;
  state: string;
  log: (line: string) => void;
  /** The org best moved to this commit (not half of an A/B run's). */
  noteBest: (commit: string) => void;
  /** The agent's branch head after the verdict, to count as settled at once. */
  noteHead: (agent: string, head: string) => void;
}

/** Record the verdict of `request` (and of the requests it answers, `aliases`) in the order a restart relies on. */
export async function publishVerdict(
  hands: VerdictHands, request: ExperimentRequest, outcome: ExperimentOutcome, aliases: readonly string[],
): Promise<void> {
  const { config, journal, port, state } = hands;
  const agent = request.agent;
  const verify = config.verify!;
  await writeLedger(state, agent, outcome.ledger);
  const { verdict } = outcome;
  if (verdict.kind === "keep" || verdict.kind === "baseline") {
    const moved = await advanceFrontier({
      record: hands.record, journal, goal: verify.metric.goal, metricName: verify.metric.name,
      candidate: { commit: request.commit, metric: verdict.metric, agent },
      notify: (to, text) => port.appendInbox(to, text),
      onlyIfMissing: verdict.kind === "baseline",
    });
    if (moved && !moved.half) hands.noteBest(moved.commit);
  }
  hands.noteHead(agent, outcome.head);
  const { ledger: next, ...rest } = outcome;
  for (const id of [request.id, ...aliases]) {
    await writeVerdictFile(journal, state, { id, outcome: rest, best: next.best });
  }
  // Sent after the verdict file and before the request is cleared: a daemon killed between sends it again, never
  // not at all.
  if (request.reply === "message") {
    const maxBytes = readMessageSettings(config).max_bytes;
    const text = formatVerdictMessage({ id: request.id, outcome: rest, best: next.best }, maxBytes);
    await port.appendInbox(agent, text, { experiment: request.id, notify: "always" });
  }
  hands.log(`${verdict.reason} [${agent} ${request.commit.slice(0, 7)}, ${outcome.seconds.toFixed(1)}s]`);
  await removeFromQueue(state, request.id);
}
