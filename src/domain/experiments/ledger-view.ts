// What the views (`org status`, `org watch`, `org up --wait`, `org results`) show of an agent's ledger: whether its
// baseline measured or crashed. Checked field by field, not through the ledger's zod schema: `org status` reads every
// agent's ledger and must not load zod for four fields.
import type { AgentLedger } from "./request.js";

/** The ledger's fields a view reads. */
export type LedgerView = Pick<AgentLedger, "best" | "baseline" | "baselineCrash" | "baselineLog">;

type Fields = Record<string, unknown>;

const isFields = (value: unknown): value is Fields =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const isOptionalString = (value: unknown) => value === undefined || typeof value === "string";

function isBest(value: unknown): boolean {
  if (value === null) return true;
  return isFields(value) && typeof value.commit === "string" && isNumber(value.metric)
    && (value.runs === undefined || isNumber(value.runs));
}

function isBaseline(value: unknown): boolean {
  if (value === undefined) return true;
  return isFields(value) && Array.isArray(value.samples) && value.samples.every(isNumber) && isNumber(value.mean)
    && isNumber(value.sd);
}

/** A ledger file's JSON as the views read it; undefined when those fields are not as the verifier writes them. */
export function parseLedgerView(value: unknown): LedgerView | undefined {
  if (!isFields(value) || !isBest(value.best) || !isBaseline(value.baseline)) return undefined;
  if (!isOptionalString(value.baselineCrash) || !isOptionalString(value.baselineLog)) return undefined;
  return value as unknown as LedgerView;
}
