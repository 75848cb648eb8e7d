import { relative, resolve } from "node:path";
import type { ContractSettings, OrgConfig } from "../../domain/config/index.js";
import { decideAgreement } from "../../domain/contracts/agreement.js";
import { formatContract } from "../../domain/contracts/contract-file.js";
import { formatFrontMatter } from "../../domain/front-matter.js";
import { decideSprint, parseReview } from "../../domain/contracts/decide-sprint.js";
import { OrgError } from "../../domain/errors.js";
import { formatLogEntry } from "../../domain/log-entry.js";
import { readMessageSettings } from "../../domain/messages/mail-port.js";
import { senderName, type Sender } from "../../domain/messages/wiring.js";
import { contractPaths, orgPaths } from "../../domain/paths.js";
import { listAgents } from "../../domain/lifecycle/plan-agents.js";
import { readCurrentContract, withContractLock } from "./contracts.js";
import { appendLines, readText, writeFileAtomic } from "../fs/files.js";
import { sendMessage } from "./inbox-files.js";
import { readTrustedRows } from "../verifier/checked-results.js";

export interface SprintReview {
  root: string;
  cwd: string;
  file: string;
  commit?: string;
  config: OrgConfig;
  settings: ContractSettings;
  caller: Sender;
}

/**
 * The evaluator's checklist against the agreed contract, stored next to it; every item passing on a commit the
 * verifier kept closes the sprint. Logs it, tells the generators, and returns what the caller is told.
 */
export async function reviewSprint(opts: SprintReview): Promise<string> {
  const { config, settings } = opts;
  const text = await readText(resolve(opts.cwd, opts.file));
  if (text === undefined) throw new OrgError(
    `${opts.file} does not exist in ${opts.cwd} — write the review as the contract's checklist, ticked, first (nothing `
      + `was changed)`,
    "usage",
  );
  if (Buffer.byteLength(text) > settings.max_bytes) throw new OrgError(
    `${opts.file} is ${Buffer.byteLength(text)} bytes, over the cap of ${settings.max_bytes} (contracts.max_bytes) — `
      + `one line of evidence per assertion (nothing was changed)`,
    "contract",
  );
  const state = orgPaths(opts.root).state;
  const paths = contractPaths(state);
  return withContractLock(state, async () => {
    const current = await readCurrentContract(state);
    if (!current) throw new OrgError(
      "there is no contract to review against — the generator drafts one: org contract draft -f contract.md (nothing "
        + "was changed)",
      "contract",
    );
    if (!current.parsed.ok) throw new OrgError(
      `${relative(opts.root, current.file)}:${current.parsed.line}: ${current.parsed.reason} — ${current.parsed.fix} `
        + `(nothing was changed)`,
      "contract",
    );
    const contract = current.parsed.contract;
    const agreement = decideAgreement(contract, settings.min_assertions);
    if (agreement.kind !== "agreed") {
      throw new OrgError(
        `sprint ${contract.sprint}'s contract is `
          + `${agreement.kind === "done" ? "done already" : `not agreed: ${agreement.reason}`} — a review checks the `
          + `commit of an agreed sprint (nothing was changed)`,
        "contract",
      );
    }
    const review = parseReview(text, contract);
    if (!review.ok) throw new OrgError(
      `${opts.file}:${review.line}: ${review.reason} — ${review.fix} (nothing was changed)`, "review",
    );
    const generators = new Set(listAgents(config)
      .filter((agent) => agent.role === settings.generator)
      .map((agent) => agent.name));
    // A sprint is done only by a keep the verifier vouches for, never by a forged row.
    const kept = (await readTrustedRows(orgPaths(opts.root).state)).filter((row) => row.status === "keep"
      && generators.has(row.agent));
    const decision = decideSprint({
      sprint: contract.sprint, items: review.items, commit: opts.commit ?? review.commit, kept, agreedAt: agreement.at,
    });
    const by = senderName(opts.caller);
    const now = new Date();
    const passed = review.items.filter((item) => item.passed).length;
    await writeFileAtomic(paths.review(contract.sprint), formatFrontMatter([
      ["sprint", String(contract.sprint)], ["by", by], ["time", now.toISOString()],
      ["commit", decision.kind === "done" ? decision.commit : (opts.commit ?? review.commit)],
      ["passed", `${passed}/${review.items.length}`], ["verdict", decision.kind],
    ], review.items
      .map((item) => `- [${item.passed ? "x" : " "}] ${item.assertion}${item.evidence ? ` — ${item.evidence}` : ""}`)
      .join("\n")));
    const where = relative(opts.root, paths.review(contract.sprint));
    if (decision.kind === "done") await writeFileAtomic(
      current.file,
      formatContract({ ...contract, status: "done", done: { commit: decision.commit, at: now.toISOString() } }),
    );
    const line = decision.kind === "done"
      ? `sprint ${contract.sprint} done: ${decision.reason}`
      : `sprint ${contract.sprint} reviewed by ${by}: ${decision.reason}`;
    await appendLines(orgPaths(opts.root).log, [
      formatLogEntry({
        date: now, op: decision.kind === "done" ? "sprint" : "review",
        title: decision.kind === "done" ? `sprint ${contract.sprint} done` : `sprint ${contract.sprint} review`,
        body: `${line} (${where})`,
      }),
    ]);
    const message = `${line} — the review is ${where}`
      + `${decision.kind === "done" ? "; draft the next sprint's contract: org contract draft -f contract.md" : ""}`;
    const to = [...generators];
    if (to.length > 0) await sendMessage(
      state, { from: by, to, kind: "review", body: message }, readMessageSettings(config),
    );
    return message;
  });
}
