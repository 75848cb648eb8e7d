import { OrgError } from "../../domain/errors.js";
import { orgPaths } from "../../domain/paths.js";
import { isQueued } from "../../adapters/store/queue.js";
import { assertJournaledVerdict, hasVerdict, waitForVerdict } from "../../adapters/verifier/verdict-file.js";
import type { Io } from "../io.js";
import { printAnswer } from "../print-answer.js";

// Ids name files under state/queue and state/verdicts: anything else could name a path outside them.
const EXPERIMENT_ID = /^[0-9A-Za-z][0-9A-Za-z._-]*$/;
const HOW_TO_LIST = "`org inbox` shows your verdicts with their ids, `org results` the judged commits";

/** `org wait <id> [--json]`: block until that experiment's verdict exists, then print it as `org submit` would. */
export async function runWait(opts: { root: string; id?: string; json?: boolean }, io: Io): Promise<number> {
  const id = opts.id?.trim();
  if (!id) throw new OrgError(`which experiment? — run \`org wait <id>\` with the id \`org submit --no-wait\` printed; ${HOW_TO_LIST}`, "usage");
  const paths = orgPaths(opts.root);
  // The queue first: the verifier writes the verdict before it clears the request, so a known id is always in one of them.
  const known = EXPERIMENT_ID.test(id) && ((await isQueued(paths.state, id)) || (await hasVerdict(paths.state, id)));
  if (!known) throw new OrgError(`no experiment "${id}" is queued or judged — ${HOW_TO_LIST}`, "unknown-experiment");
  const answer = await waitForVerdict(paths, id);
  // A verdict file edited after the verifier wrote it is refused, and told as tampering.
  await assertJournaledVerdict(opts.root, id, (line) => io.err(line));
  return printAnswer(answer, io, Boolean(opts.json));
}
