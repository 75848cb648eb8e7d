import { relative, resolve } from "node:path";
import type { ContractSettings, OrgConfig } from "../../domain/config/index.js";
import { describeTransition, requireParty, type ContractAction } from "../../domain/contracts/actions.js";
import { draftContract, objectToContract, signContract, type Transition } from "../../domain/contracts/agreement.js";
import { formatContract, hashBody, readAssertions, type Contract } from "../../domain/contracts/contract-file.js";
import { parseFrontMatter } from "../../domain/front-matter.js";
import { OrgError } from "../../domain/errors.js";
import { formatLogEntry } from "../../domain/log-entry.js";
import { readMessageSettings } from "../../domain/messages/mail-port.js";
import { senderName, type Sender } from "../../domain/messages/wiring.js";
import { contractPaths, orgPaths } from "../../domain/paths.js";
import { listAgents } from "../../domain/lifecycle/plan-agents.js";
import { readCurrentContract, withContractLock } from "./contracts.js";
import { appendLines, readText, writeFileAtomic } from "../fs/files.js";
import { sendMessage } from "./inbox-files.js";

export interface ContractChange {
  root: string;
  cwd: string;
  config: OrgConfig;
  settings: ContractSettings;
  caller: Sender;
  action: Exclude<ContractAction, { kind: "status" }>;
}

/**
 * Draft, sign or object under the lock: the contract file, a log.md line and a notice to the other party; returns
 * what the caller is told.
 */
export async function changeContract(opts: ContractChange): Promise<string> {
  const { action, caller, settings } = opts;
  const party = requireParty(caller, settings, action.kind === "draft"
    ? ["generator"]
    : action.kind === "sign" ? ["generator", "evaluator"] : ["evaluator"], action.kind);
  const state = orgPaths(opts.root).state;
  const show = (file: string) => relative(opts.root, file);
  return withContractLock(state, async () => {
    const current = await readCurrentContract(state);
    if (current && !current.parsed.ok && action.kind !== "draft") {
      throw new OrgError(
        `${show(current.file)}:${current.parsed.line}: ${current.parsed.reason} — ${current.parsed.fix}; or the `
          + `generator drafts it again (nothing was changed)`,
        "contract",
      );
    }
    const existing = current?.parsed.ok ? current.parsed.contract : undefined;
    let next: Transition;
    if (action.kind === "draft") {
      // An unreadable contract is replaced within its sprint, never by sprint 1's.
      const base = existing ?? (current && { sprint: current.sprint, status: "draft" as const });
      next = {
        ok: true, contract: await readDraft(opts.cwd, action.file, base, senderName(caller), settings), agreed: false,
      };
    } else {
      if (!existing) throw new OrgError(
        "no contract is drafted yet — the generator drafts one: org contract draft -f contract.md", "contract",
      );
      const agent = senderName(caller);
      next = action.kind === "sign"
        ? signContract(existing, party, agent, new Date(), settings.min_assertions)
        : objectToContract(existing, agent, action.why);
    }
    if (!next.ok) throw new OrgError(
      `${next.reason}${/nothing to do$/.test(next.reason) ? "" : " (nothing was changed)"}`, "contract",
    );
    const file = contractPaths(state).contract(next.contract.sprint);
    await writeFileAtomic(file, formatContract(next.contract));
    const summary = describeTransition(action.kind, next, senderName(caller), show(file));
    await appendLines(orgPaths(opts.root).log, [
      formatLogEntry({ date: new Date(), op: "contract", title: summary.log }),
    ]);
    await notify(
      opts.config, state, caller, summary.to === "generator" ? settings.generator : settings.evaluator, summary.message,
    );
    return summary.message;
  });
}

async function readDraft(
  cwd: string, path: string, existing: Pick<Contract, "sprint" | "status"> | undefined, drafter: string,
  settings: ContractSettings,
): Promise<Contract> {
  const text = await readText(resolve(cwd, path)).catch((error: NodeJS.ErrnoException) => {
    throw new OrgError(
      `cannot read ${path} (${error.code ?? error.message}) — give a readable Markdown file (nothing was changed)`,
      "usage",
    );
  });
  if (text === undefined) throw new OrgError(
    `${path} does not exist in ${cwd} — write the checklist to a Markdown file first (nothing was changed)`, "usage",
  );
  if (Buffer.byteLength(text) > settings.max_bytes) throw new OrgError(
    `${path} is ${Buffer.byteLength(text)} bytes, over the cap of ${settings.max_bytes} (contracts.max_bytes) — keep `
      + `to testable assertions (nothing was changed)`,
    "contract",
  );
  // A draft may carry front matter (a copy of the stored contract): only its body counts.
  const parsed = parseFrontMatter(text, "sprint: 1");
  if (!parsed.ok) throw new OrgError(
    `${path}:${parsed.line}: ${parsed.reason} — ${parsed.fix} (nothing was changed)`, "contract",
  );
  const assertions = readAssertions(parsed.body, parsed.bodyLine);
  if (!assertions.ok) throw new OrgError(
    `${path}:${assertions.line}: ${assertions.reason} — ${assertions.fix} (nothing was changed)`, "contract",
  );
  return draftContract(existing, parsed.body, hashBody(parsed.body), assertions.assertions, drafter === "person"
    ? undefined
    : drafter);
}

// A protocol notice, not a chat: it reaches the other party whatever talks_to says.
async function notify(config: OrgConfig, state: string, caller: Sender, role: string, text: string): Promise<void> {
  const to = listAgents(config)
    .filter((agent) => agent.role === role && agent.name !== senderName(caller))
    .map((agent) => agent.name);
  if (to.length > 0) await sendMessage(
    state, { from: senderName(caller), to, kind: "contract", body: text }, readMessageSettings(config),
  );
}
