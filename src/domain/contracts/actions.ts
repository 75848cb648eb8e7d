import type { ContractSettings, OrgConfig } from "../config/index.js";
import { OrgError } from "../errors.js";
import type { Sender } from "../messages/wiring.js";
import type { Transition } from "./agreement.js";
import type { Party } from "./contract-file.js";

export type ContractAction =
  | { kind: "draft"; file: string }
  | { kind: "sign" }
  | { kind: "object"; why: string }
  | { kind: "status" };

/** org.yaml's contracts section, which `org contract` and `org review` cannot work without. */
export function requireContractSettings(config: OrgConfig): ContractSettings {
  if (!config.contracts) throw new OrgError(
    "org.yaml has no contracts section — "
      + "add `contracts: { generator: generator, evaluator: evaluator }` to use contracts",
    "no-contracts",
  );
  return config.contracts;
}

/** The party the caller acts as for this verb, or why it may not act. */
export function requireParty(caller: Sender, settings: ContractSettings, parties: Party[], verb: string): Party {
  if (caller.kind === "person") {
    if (parties.includes("generator") && verb === "draft") return "generator";
    throw new OrgError(
      `a person cannot ${verb} a contract: the agents of roles ${settings.generator} and ${settings.evaluator} do — `
        + `run it with ORG_AGENT set to one of them`,
      "not-party",
    );
  }
  const party = parties.find((candidate) => settings[candidate] === caller.role);
  if (!party) throw new OrgError(
    `${caller.agent} may not ${verb} the contract: `
      + `only role ${parties.map((candidate) => settings[candidate]).join(" or ")} may (contracts in org.yaml) `
      + `(nothing was changed)`,
    "not-party",
  );
  return party;
}

/** What a change is called in log.md, what the caller is told, and which party hears of it. */
export function describeTransition(
  kind: ContractAction["kind"], next: Extract<Transition, { ok: true }>, agent: string, file: string,
): { message: string; log: string; to: Party } {
  const { sprint, assertions } = next.contract;
  if (kind === "draft") return {
    to: "evaluator",
    log: `sprint ${sprint} drafted by ${agent}`,
    message: `sprint ${sprint}'s contract drafted by ${agent} (${assertions.length} assertions): ${file} — `
      + `the evaluator signs it (\`org contract sign\`) or objects (\`org contract object "why"\`)`,
  };
  if (kind === "object") return {
    to: "generator",
    log: `sprint ${sprint} objected to by ${agent}`,
    message: `${agent} objects to sprint ${sprint}'s contract: ${next.contract.objection} — `
      + `the generator revises ${file} and drafts it again`,
  };
  if (next.agreed) return {
    to: next.contract.generator === agent ? "evaluator" : "generator",
    log: `sprint ${sprint} agreed`,
    message: `sprint ${sprint}'s contract is agreed (${assertions.length} assertions, sha256:${next.contract.hash}): `
      + `the generator may submit`,
  };
  return {
    to: next.contract.generator === agent ? "evaluator" : "generator",
    log: `sprint ${sprint} signed by ${agent}`,
    message: `${agent} signed sprint ${sprint}'s contract (sha256:${next.contract.hash}); `
      + `it is agreed once the other party signs it too: ${file}`,
  };
}
