import type { SubmitAnswer } from "../domain/experiments/submit-reply.js";
import { OrgError } from "../domain/errors.js";
import { orgPaths } from "../domain/paths.js";
import { isQueued } from "../adapters/store/queue.js";
import { assertJournaledVerdict, hasVerdict, waitForVerdict } from "../adapters/verifier/verdict-file.js";

// Ids name files under state/queue and state/verdicts: anything else could name a path outside them.
const EXPERIMENT_ID = /^[0-9A-Za-z][0-9A-Za-z._-]*$/;
const HOW_TO_LIST = "`org inbox` shows your verdicts with their ids, `org results` the judged commits";

/** An experiment queued or judged; `waitForVerdict` follows it to its verdict. */
export interface Awaited {
  id: string;
  waitForVerdict(): Promise<SubmitAnswer>;
}

/**
 * `org wait`: the experiment `id` names, refused unless it is queued or judged. `warn` gets a line for stderr when its
 * verdict is not journaled yet; a verdict file edited after the verifier wrote it is refused, and told as tampering.
 */
export async function findExperiment(
  input: { root: string; id?: string; warn: (line: string) => void },
): Promise<Awaited> {
  const id = input.id?.trim();
  if (!id) {
    const fix = `run \`org wait <id>\` with the id \`org submit --no-wait\` printed; ${HOW_TO_LIST}`;
    throw new OrgError(`which experiment? — ${fix}`, "usage");
  }
  const paths = orgPaths(input.root);
  // The queue first: the verifier writes the verdict before it clears the request, so a known id is in one of them.
  const known = EXPERIMENT_ID.test(id) && ((await isQueued(paths.state, id)) || (await hasVerdict(paths.state, id)));
  if (!known) throw new OrgError(`no experiment "${id}" is queued or judged — ${HOW_TO_LIST}`, "unknown-experiment");
  return {
    id,
    waitForVerdict: async () => {
      const answer = await waitForVerdict(paths, id);
      await assertJournaledVerdict(input.root, id, input.warn);
      return answer;
    },
  };
}
