import type { ExperimentRequest } from "../../domain/experiments/request.js";
import type { VerifierPort } from "../../domain/experiments/verifier-port.js";
import { describeCancel, type CancelledFile } from "../../domain/experiments/submit-reply.js";
import { formatLogEntry } from "../../domain/log-entry.js";
import type { OrgPaths } from "../../domain/paths.js";
import { appendLines } from "../../adapters/fs/files.js";
import { removeFromQueue } from "../../adapters/store/queue.js";
import type { JournalStore } from "../../adapters/store/journal-store.js";
import { writeVerdictFile } from "../../adapters/verifier/verdict-file.js";

/**
 * A stop by a GPU-hour or cost limit: each queued request not yet running is answered as cancelled (its verdict file,
 * a message for `--no-wait`), removed, and logged; confirmations and what runs or just finished are kept.
 */
export async function cancelQueued(input: {
  pending: ExperimentRequest[];
  keep: (request: ExperimentRequest) => boolean;
  aliases: (id: string) => string[];
  reason: string;
  now: Date;
  paths: OrgPaths;
  journal: JournalStore;
  port: VerifierPort;
  log: (line: string) => void;
}): Promise<ExperimentRequest[]> {
  const { paths, reason } = input;
  const kept: ExperimentRequest[] = [];
  for (const request of input.pending) {
    if (request.kind === "confirm" || input.keep(request)) {
      kept.push(request);
      continue;
    }
    const why = `the org stopped (${reason}) — raise the limit in org.yaml, or \`org up --resume\`; ` +
      `the commit is judged then`;
    // Answered like a verdict, before the request goes: `org submit` and `org wait` would otherwise wait for ever.
    const answer: CancelledFile = {
      id: request.id,
      commit: request.commit,
      description: request.description,
      cancelled: why,
    };
    for (const id of [request.id, ...input.aliases(request.id)])
      await writeVerdictFile(input.journal, paths.state, { ...answer, id });
    if (request.reply === "message")
      await input.port.appendInbox(
        request.agent,
        `## cancelled ${request.commit.slice(0, 7)}\n${describeCancel(answer)}`,
        { experiment: request.id, notify: "always" },
      );
    await removeFromQueue(paths.state, request.id);
    const title = `${request.agent} ${request.commit.slice(0, 7)} ` +
      `${request.kind === "baseline" ? "baseline" : request.description.replace(/\s+/g, " ").slice(0, 120)}`;
    await appendLines(paths.log, [
      formatLogEntry({
        date: input.now,
        op: "cancel",
        title,
        body: `not run: the org stopped (${reason}); its request was removed — ` +
          `raise the limit in org.yaml and the commit is judged`,
      }),
    ]);
    input.log(`stop: cancelled ${request.id}: the org stopped (${reason})`);
  }
  return kept;
}
