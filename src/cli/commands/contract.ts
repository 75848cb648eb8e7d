import { rm } from "node:fs/promises";
import { relative, resolve } from "node:path";
import type { ContractSettings, OrgConfig } from "../../org/config/schema.js";
import { OrgError } from "../../org/errors.js";
import { formatLogEntry } from "../../org/log-entry.js";
import { decideAgreement, decideSubmit, draftContract, objectToContract, signContract, type Transition } from "../../org/contracts/agreement.js";
import { formatContract, hashBody, parseContract, readAssertions, type Contract, type Party, type ParsedContract } from "../../org/contracts/contract.js";
import { parseFrontMatter } from "../../org/contracts/front-matter.js";
import { readMessageSettings } from "../../org/messages/mail-port.js";
import { senderName, type Sender } from "../../org/messages/wiring.js";
import { listAgents } from "../../org/plan.js";
import { contractPaths, orgPaths } from "../../org/paths.js";
import { appendLines, readText, writeFileAtomic } from "../../adapters/files.js";
import { acquire } from "../../adapters/inbox-notes.js";
import { mailPort, sendMessage } from "../../adapters/inbox-store.js";
import type { Io } from "../io.js";
import { identifyCaller, loadConfigOrThrow } from "./send.js";
import { readAndLoadConfig } from "./validate.js";

export type ContractAction = { kind: "draft"; file: string } | { kind: "sign" } | { kind: "object"; why: string } | { kind: "status" };

/** The newest sprint's contract file, parsed; undefined before the first draft. */
export async function readCurrentContract(state: string): Promise<{ sprint: number; file: string; parsed: ParsedContract } | undefined> {
  const paths = contractPaths(state);
  const sprints = (await mailPort.listNames(paths.dir)).map((name) => /^sprint-([1-9]\d*)\.md$/.exec(name)?.[1]).filter((n) => n !== undefined).map(Number);
  if (sprints.length === 0) return undefined;
  const sprint = Math.max(...sprints);
  const file = paths.contract(sprint);
  return { sprint, file, parsed: parseContract((await readText(file)) ?? "") };
}

/** `org submit` by the generator role waits for an agreed contract; a broken org.yaml leaves the rule to the verifier's config. */
export async function assertContractAgreed(root: string, role: string): Promise<void> {
  const read = await readAndLoadConfig({ cwd: root });
  const settings = "loaded" in read ? read.loaded.config.contracts : undefined;
  if (!settings || settings.generator !== role) return;
  const current = await readCurrentContract(orgPaths(root).state);
  const where = current && `${relative(root, current.file)}:${current.parsed.ok ? 1 : current.parsed.line}`;
  const decision = decideSubmit(current && (current.parsed.ok ? { contract: current.parsed.contract } : { sprint: current.sprint, problem: `${where}: ${current.parsed.reason} — ${current.parsed.fix}` }), settings.min_assertions);
  if (decision.kind === "refused") throw new OrgError(decision.reason, "no-contract");
}

/** `org contract draft|sign|object|status`: the generator drafts, both parties sign the same checklist, the evaluator may object. */
export async function runContract(opts: { root: string; cwd: string; envAgent?: string; action: ContractAction }, io: Io): Promise<number> {
  const config = await loadConfigOrThrow(opts.root);
  const settings = config.contracts;
  if (!settings) throw new OrgError("org.yaml has no contracts section — add `contracts: { generator: generator, evaluator: evaluator }` to use contracts", "no-contracts");
  const caller = identifyCaller(config, opts.envAgent);
  const state = orgPaths(opts.root).state;
  const show = (file: string) => relative(opts.root, file);
  if (opts.action.kind === "status") return printStatus(io, state, settings, show);
  const party = requireParty(caller, settings, opts.action.kind === "draft" ? ["generator"] : opts.action.kind === "sign" ? ["generator", "evaluator"] : ["evaluator"], opts.action.kind);
  const lock = contractPaths(state).lock;
  await acquire(lock);
  try {
    const current = await readCurrentContract(state);
    if (current && !current.parsed.ok && opts.action.kind !== "draft") {
      throw new OrgError(`${show(current.file)}:${current.parsed.line}: ${current.parsed.reason} — ${current.parsed.fix}; or the generator drafts it again (nothing was changed)`, "contract");
    }
    const existing = current?.parsed.ok ? current.parsed.contract : undefined;
    let next: Transition;
    if (opts.action.kind === "draft") {
      // An unreadable contract is replaced within its sprint, never by sprint 1's.
      const base = existing ?? (current && { sprint: current.sprint, status: "draft" as const });
      next = { ok: true, contract: await readDraft(opts.cwd, opts.action.file, base, senderName(caller), settings), agreed: false };
    } else {
      if (!existing) throw new OrgError("no contract is drafted yet — the generator drafts one: org contract draft -f contract.md", "contract");
      const agent = senderName(caller);
      next = opts.action.kind === "sign" ? signContract(existing, party, agent, new Date(), settings.min_assertions) : objectToContract(existing, agent, opts.action.why);
    }
    if (!next.ok) throw new OrgError(`${next.reason}${/nothing to do$/.test(next.reason) ? "" : " (nothing was changed)"}`, "contract");
    const file = contractPaths(state).contract(next.contract.sprint);
    await writeFileAtomic(file, formatContract(next.contract));
    const summary = describe(opts.action.kind, next, senderName(caller), show(file));
    await appendLines(orgPaths(opts.root).log, [formatLogEntry({ date: new Date(), op: "contract", title: summary.log })]);
    await notify(config, state, caller, summary.to === "generator" ? settings.generator : settings.evaluator, summary.message);
    io.out(summary.message);
    return 0;
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

async function readDraft(cwd: string, path: string, existing: Pick<Contract, "sprint" | "status"> | undefined, drafter: string, settings: ContractSettings): Promise<Contract> {
  const text = await readText(resolve(cwd, path)).catch((error: NodeJS.ErrnoException) => {
    throw new OrgError(`cannot read ${path} (${error.code ?? error.message}) — give a readable Markdown file (nothing was changed)`, "usage");
  });
  if (text === undefined) throw new OrgError(`${path} does not exist in ${cwd} — write the checklist to a Markdown file first (nothing was changed)`, "usage");
  if (Buffer.byteLength(text) > settings.max_bytes) throw new OrgError(`${path} is ${Buffer.byteLength(text)} bytes, over the cap of ${settings.max_bytes} (contracts.max_bytes) — keep to testable assertions (nothing was changed)`, "contract");
  // A draft may carry front matter (a copy of the stored contract): only its body counts.
  const parsed = parseFrontMatter(text, "sprint: 1");
  if (!parsed.ok) throw new OrgError(`${path}:${parsed.line}: ${parsed.reason} — ${parsed.fix} (nothing was changed)`, "contract");
  const assertions = readAssertions(parsed.body, parsed.bodyLine);
  if (!assertions.ok) throw new OrgError(`${path}:${assertions.line}: ${assertions.reason} — ${assertions.fix} (nothing was changed)`, "contract");
  return draftContract(existing, parsed.body, hashBody(parsed.body), assertions.assertions, drafter === "person" ? undefined : drafter);
}

function requireParty(caller: Sender, settings: ContractSettings, parties: Party[], verb: string): Party {
  if (caller.kind === "person") {
    if (parties.includes("generator") && verb === "draft") return "generator";
    throw new OrgError(`a person cannot ${verb} a contract: the agents of roles ${settings.generator} and ${settings.evaluator} do — run it with ORG_AGENT set to one of them`, "not-party");
  }
  const party = parties.find((candidate) => settings[candidate] === caller.role);
  if (!party) throw new OrgError(`${caller.agent} may not ${verb} the contract: only role ${parties.map((candidate) => settings[candidate]).join(" or ")} may (contracts in org.yaml) (nothing was changed)`, "not-party");
  return party;
}

function describe(kind: ContractAction["kind"], next: Extract<Transition, { ok: true }>, agent: string, file: string): { message: string; log: string; to: Party } {
  const { sprint, assertions } = next.contract;
  if (kind === "draft") return { to: "evaluator", log: `sprint ${sprint} drafted by ${agent}`, message: `sprint ${sprint}'s contract drafted by ${agent} (${assertions.length} assertions): ${file} — the evaluator signs it (\`org contract sign\`) or objects (\`org contract object "why"\`)` };
  if (kind === "object") return { to: "generator", log: `sprint ${sprint} objected to by ${agent}`, message: `${agent} objects to sprint ${sprint}'s contract: ${next.contract.objection} — the generator revises ${file} and drafts it again` };
  if (next.agreed) return { to: next.contract.generator === agent ? "evaluator" : "generator", log: `sprint ${sprint} agreed`, message: `sprint ${sprint}'s contract is agreed (${assertions.length} assertions, sha256:${next.contract.hash}): the generator may submit` };
  return { to: next.contract.generator === agent ? "evaluator" : "generator", log: `sprint ${sprint} signed by ${agent}`, message: `${agent} signed sprint ${sprint}'s contract (sha256:${next.contract.hash}); it is agreed once the other party signs it too: ${file}` };
}

// A protocol notice, not a chat: it reaches the other party whatever talks_to says.
async function notify(config: OrgConfig, state: string, caller: Sender, role: string, text: string): Promise<void> {
  const to = listAgents(config).filter((agent) => agent.role === role && agent.name !== senderName(caller)).map((agent) => agent.name);
  if (to.length > 0) await sendMessage(state, { from: senderName(caller), to, kind: "contract", body: text }, readMessageSettings(config));
}

async function printStatus(io: Io, state: string, settings: ContractSettings, show: (file: string) => string): Promise<number> {
  const current = await readCurrentContract(state);
  if (!current) {
    io.out(`no contract yet: the generator (role ${settings.generator}) drafts sprint 1's with org contract draft -f contract.md`);
    return 0;
  }
  if (!current.parsed.ok) {
    io.out(`sprint ${current.sprint}: unreadable — ${show(current.file)}:${current.parsed.line}: ${current.parsed.reason} — ${current.parsed.fix}`);
    return 1;
  }
  const contract = current.parsed.contract;
  const agreement = decideAgreement(contract, settings.min_assertions);
  io.out(`sprint ${contract.sprint}: ${agreement.kind === "open" ? `not agreed — ${agreement.reason}; ${agreement.fix}` : agreement.reason}`);
  io.out(`contract: ${show(current.file)} (${contract.assertions.length} assertions, at least ${settings.min_assertions}; sha256:${contract.hash})`);
  for (const party of ["generator", "evaluator"] as const) {
    const signature = contract.signed[party];
    const state = !signature ? "not signed" : signature.hash === contract.hash ? `signed ${signature.at}` : `signed an earlier version ${signature.at}`;
    io.out(`${party}: ${contract[party] ?? `(role ${settings[party]})`} ${state}`);
  }
  if (contract.objection) io.out(`objection: ${contract.objection}`);
  return 0;
}
