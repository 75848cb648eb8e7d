import { reviewSprintAs } from "../../flows/contract-sprint.js";
import type { Io } from "../io.js";

/**
 * `org review -f review.md [--commit sha]`: the evaluator's checklist against the agreed contract, stored
 * next to it; every item passing on a commit the verifier kept closes the sprint.
 */
export async function runReview(
  opts: { root: string; cwd: string; file: string; commit?: string }, io: Io,
): Promise<number> {
  io.out(await reviewSprintAs(opts));
  return 0;
}
