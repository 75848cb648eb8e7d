import { restoreProgram } from "../../flows/reload/restore-program.js";
import type { Io } from "../io.js";
import { printOutcome } from "../shared.js";

/** `org program restore <version>`: a version's org.yaml and prompts written back; a running org applies them. */
export async function runProgramRestore(opts: { root: string; version: string }, io: Io): Promise<number> {
  const restored = await restoreProgram(opts.root, opts.version);
  const { version } = restored;
  switch (restored.kind) {
    case "invalid":
      for (const problem of restored.problems) io.err(problem);
      io.err(
        `program ${version} no longer validates: nothing was restored; org.yaml, the prompts and the running org are `
          + `as they were`,
      );
      return 1;
    case "written": {
      const { prompts } = restored;
      io.out(
        `restored program ${version}: org.yaml and ${prompts.length} prompt${prompts.length === 1 ? "" : "s"} `
          + `(${prompts.join(", ")})`,
      );
      io.out("the org is not running: `org up` starts it with this program");
      return 0;
    }
    case "reloaded": {
      const code = printOutcome(restored.outcome, io, true);
      if (code === 0) io.out(`restored program ${version}`);
      return code;
    }
  }
}
