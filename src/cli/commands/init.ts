import { initOrg, PROMPT_FILE, type InitInput } from "../../flows/init-org.js";
import { formatInitSummary } from "../../ui/init-summary.js";
import type { Io } from "../io.js";

/** `org init`: org.yaml guessed from the repo, and a researcher prompt; never overwrites without --force. */
export async function runInit(opts: InitInput, io: Io): Promise<number> {
  const done = await initOrg(opts);
  switch (done.tag) {
    case "refused":
      io.err(done.reason);
      return 1;
    case "guessed":
      io.out(`wrote org.yaml${done.keptPrompt ? ` (kept the existing ${PROMPT_FILE})` : ` and ${PROMPT_FILE}`}`);
      for (const line of formatInitSummary(done.proposal)) io.out(line);
      return 0;
    case "template": {
      io.out(describeWritten(done.written, done.kept));
      const goal = done.name === "pipeline" ? "write your goal in goal.md, " : "";
      io.out(`next: ${goal}edit them, check with \`org validate\`, then start with \`org up\``);
      return 0;
    }
    case "software":
      io.out(describeWritten(done.written, done.kept));
      for (const check of done.checks) io.out(`check: ${check}`);
      io.out("next: write your goal in goal.md and the app you want in eval/rubric.md, commit everything, "
        + "check with `org validate`, then start with `org up`");
      return 0;
  }
}

function describeWritten(written: string[], kept: string[]): string {
  return `wrote ${joinAnd(written)}${kept.length > 0 ? ` (kept the existing ${joinAnd(kept)})` : ""}`;
}

function joinAnd(items: string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}
