import { EXIT } from "../../domain/scripting/index.js";
import { formatJson } from "../../domain/safe-text.js";
import { submitExperiment } from "../../flows/submit-experiment.js";
import type { Io } from "../io.js";
import { printAnswer } from "../print-answer.js";

/**
 * `org submit -m "what I tried"`: commit the worktree, hand the commit to the verifier, print its verdict;
 * `--no-wait` returns once it is queued.
 */
export async function runSubmit(
  opts: { root: string; cwd: string; message?: string; wait?: boolean; json?: boolean },
  io: Io,
): Promise<number> {
  const wait = opts.wait !== false;
  const submitted = await submitExperiment({
    root: opts.root, cwd: opts.cwd, message: opts.message, wait, warn: io.err,
  });
  const { id, commit, description } = submitted;
  if (!wait) {
    if (opts.json) io.out(formatJson({ id, commit, description, verdict: null }));
    else {
      io.out(`queued ${commit.slice(0, 7)} "${description}" as ${id}`);
      io.out(`its verdict comes to your inbox (\`org inbox\`); \`org wait ${id}\` waits for it here`);
    }
    return EXIT.ok;
  }
  // Under --json stdout holds the answer alone; the wait is said on stderr.
  (opts.json ? io.err : io.out)(`submitted ${commit.slice(0, 7)} "${description}"; waiting for the verifier…`);
  return printAnswer(await submitted.waitForVerdict(), io, Boolean(opts.json));
}
