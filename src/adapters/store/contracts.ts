import { relative } from "node:path";
import { decideSubmit } from "../../domain/contracts/agreement.js";
import { parseContract, type ParsedContract } from "../../domain/contracts/contract-file.js";
import { OrgError } from "../../domain/errors.js";
import { contractPaths, orgPaths } from "../../domain/paths.js";
import { readAndLoadConfig, readConfigText } from "./config-file.js";
import { mayNameContracts } from "../../domain/contracts/config-mention.js";
import { configProbe } from "../probes/config.js";
import { readText } from "../fs/files.js";
import { withLock } from "../fs/lock.js";
import { mailPort } from "./inbox-files.js";

export type CurrentContract = { sprint: number; file: string; parsed: ParsedContract };

/** The newest sprint's contract file, parsed; undefined before the first draft. */
export async function readCurrentContract(state: string): Promise<CurrentContract | undefined> {
  const paths = contractPaths(state);
  const sprints = (await mailPort.listNames(paths.dir))
    .map((name) => /^sprint-([1-9]\d*)\.md$/.exec(name)?.[1])
    .filter((n) => n !== undefined)
    .map(Number);
  if (sprints.length === 0) return undefined;
  const sprint = Math.max(...sprints);
  const file = paths.contract(sprint);
  return { sprint, file, parsed: parseContract((await readText(file)) ?? "") };
}

/** Run `change` holding the contracts lock, so two signers never overwrite each other. */
export async function withContractLock<T>(state: string, change: () => Promise<T>): Promise<T> {
  return withLock(contractPaths(state).lock, change);
}

/**
 * `org submit` by the generator role waits for an agreed contract; a broken org.yaml leaves the rule to
 * the verifier's config.
 */
export async function assertContractAgreed(root: string, role: string, baseCommit?: string): Promise<void> {
  // No contracts section for certain: nothing to check, and the config need not be loaded (config-mention.ts).
  const text = await readConfigText(root).catch(() => undefined);
  if (text !== undefined && !mayNameContracts(text)) return;
  // The running org's base, when the caller has it: the rule is all that is read, and git need not say the base again.
  const probe = baseCommit ? { ...configProbe, resolveCommit: () => Promise.resolve(baseCommit) } : configProbe;
  const read = await readAndLoadConfig({ cwd: root }, probe);
  const settings = "loaded" in read ? read.loaded.config.contracts : undefined;
  if (!settings || settings.generator !== role) return;
  const current = await readCurrentContract(orgPaths(root).state);
  const where = current && `${relative(root, current.file)}:${current.parsed.ok ? 1 : current.parsed.line}`;
  const decision = decideSubmit(current && (current.parsed.ok
    ? { contract: current.parsed.contract }
    : {
      sprint: current.sprint, problem: `${where}: ${current.parsed.reason} — ${current.parsed.fix}`,
    }), settings.min_assertions);
  if (decision.kind === "refused") throw new OrgError(decision.reason, "no-contract");
}
