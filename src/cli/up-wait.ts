// `org up --wait`: follow the verifier until every baseline is judged; a base that never measures is an error.
import { setTimeout as delay } from "node:timers/promises";
import { decideBaselineWait } from "../domain/views/verifier.js";
import { isOrgRecorded, readUpVerifierView } from "../flows/up/up-verifier.js";
import { describeCrashedBaselines, formatVerifierLine } from "../ui/verifier-line.js";
import type { Io } from "./io.js";

/** 0 once a baseline measured the base; 1 when every one crashed since `since`, or the org went down meanwhile. */
export async function waitForBaselines(
  root: string, agents: string[], since: number, io: Io, pollMs = 250,
): Promise<number> {
  let shown = "";
  for (;;) {
    // `org down` removes org.json: nothing will judge the baselines any more.
    if (!(await isOrgRecorded(root))) {
      io.err("the org went down before its baselines were judged — `org up --wait` again");
      return 1;
    }
    const view = await readUpVerifierView(root, agents, since);
    const line = view ? formatVerifierLine(view) : "verifier: not started yet";
    if (line !== shown) io.out(line);
    shown = line;
    const decision = view ? decideBaselineWait(view) : { kind: "waiting" as const };
    if (decision.kind === "measured") {
      io.out(decision.reason);
      for (const crash of describeCrashedBaselines(view!, root)) io.out(crash);
      return 0;
    }
    if (decision.kind === "broken") {
      io.err(decision.reason);
      for (const crash of describeCrashedBaselines(view!, root)) io.err(crash);
      return 1;
    }
    await delay(pollMs);
  }
}
