import { describeAction } from "../domain/reconcile/index.js";
import type { ReloadOutcome } from "../flows/reload/reload-org.js";
import { EXIT } from "../domain/scripting/index.js";
import type { Io } from "./io.js";

/** What `org plan` and `org reload` print; exit 1 when the edit is rejected. */
export function printOutcome(outcome: ReloadOutcome, io: Io, applying: boolean): number {
  switch (outcome.kind) {
    case "rejected":
      for (const problem of outcome.problems) io.err(problem);
      if (applying) io.err("nothing changed: the org runs as before");
      return EXIT.failure;
    case "in-sync":
      io.out("nothing to do: the running org matches org.yaml");
      return EXIT.ok;
    case "busy":
      io.err(outcome.reason);
      return EXIT.failure;
    case "planned":
    case "applied": {
      for (const warning of outcome.warnings) io.err(`warning: ${warning}`);
      const count = outcome.actions.length;
      io.out(outcome.kind === "planned"
        ? `org plan: ${count} action${count === 1 ? "" : "s"}; \`org reload\` applies them`
        : `reloaded: ${count} action${count === 1 ? "" : "s"} applied`);
      for (const action of outcome.actions) io.out(`  ${describeAction(action)}`);
      return EXIT.ok;
    }
  }
}
