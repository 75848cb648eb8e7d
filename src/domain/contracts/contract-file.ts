import { createHash } from "node:crypto";
import { SAFE_NAME, SAFE_NAME_RULE } from "../config/index.js";
import { formatFrontMatter, parseFrontMatter, type Field, type FileProblem } from "../front-matter.js";
import { cleanText } from "../safe-text.js";

const CONTRACT_STATUSES = ["draft", "objected", "agreed", "done"] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];
export type Party = "generator" | "evaluator";

/** A signature binds an agent to one version of the checklist: the hash of the body it signed. */
export interface Signature {
  at: string;
  hash: string;
}

/** One `- [ ] …` line of the checklist. */
export interface Assertion {
  text: string;
  line: number;
  checked: boolean;
}

export interface Contract {
  sprint: number;
  status: ContractStatus;
  /** The agents who last acted as each party. */
  generator?: string;
  evaluator?: string;
  signed: Partial<Record<Party, Signature>>;
  objection?: string;
  done?: { commit: string; at: string };
  body: string;
  assertions: Assertion[];
  /** sha256 of the body, first 16 hex digits: what a signature must match. */
  hash: string;
}

export type ParsedContract = { ok: true; contract: Contract } | ({ ok: false } & FileProblem);

const KEYS = [
  "sprint", "status", "generator", "evaluator", "generator_signed", "evaluator_signed", "objection", "done_commit",
  "done_at",
];
const SIGNATURE = /^(\S+) sha256:([0-9a-f]{16})$/;
const CHECKBOX = /^\s*[-*+] \[([ xX])\](.*)$/;

/** Parse a contract file; every problem names its line. */
export function parseContract(text: string): ParsedContract {
  const parsed = parseFrontMatter(text, "status: draft");
  if (!parsed.ok) return parsed;
  const { fields, body, bodyLine } = parsed;
  if (fields.size === 0) return fail(
    1,
    "no front matter: the first line is not ---",
    "draft contracts with `org contract draft -f contract.md`, which writes it",
  );
  for (const [key, field] of fields) {
    if (!KEYS.includes(key)) return fail(
      field.line,
      `front matter key "${key}" is not a contract key`,
      `use ${KEYS.join(", ")}`,
    );
  }
  const sprint = fields.get("sprint");
  if (!sprint) return fail(1, 'front matter has no "sprint"', "add sprint: 1");
  if (!/^[1-9]\d{0,5}$/.test(sprint.value)) return fail(
    sprint.line,
    `sprint "${sprint.value}" is not a sprint number`,
    "write a whole number from 1, e.g. sprint: 1",
  );
  const status = fields.get("status");
  if (!status || !(CONTRACT_STATUSES as readonly string[]).includes(status.value)) {
    return fail(
      status?.line ?? 1,
      status ? `status "${status.value}" is not a contract status` : 'front matter has no "status"',
      `write status: ${CONTRACT_STATUSES.join(" | ")}`,
    );
  }
  for (const key of ["generator", "evaluator"]) {
    const field = fields.get(key);
    if (field && !SAFE_NAME.test(field.value)) return fail(
      field.line,
      `${key} "${field.value}" is not an agent name`,
      `use ${SAFE_NAME_RULE}`,
    );
  }
  const signed: Contract["signed"] = {};
  for (const party of ["generator", "evaluator"] as const) {
    const field = fields.get(`${party}_signed`);
    if (!field) continue;
    const signature = parseSignature(field);
    if (!signature.ok) return signature;
    signed[party] = signature.signature;
  }
  const assertions = readAssertions(body, bodyLine);
  if (!assertions.ok) return assertions;
  const doneCommit = fields.get("done_commit")?.value;
  const contract: Contract = {
    sprint: Number(sprint.value),
    status: status.value as ContractStatus,
    signed,
    body,
    assertions: assertions.assertions,
    hash: hashBody(body),
    ...(fields.has("generator") ? { generator: fields.get("generator")!.value } : {}),
    ...(fields.has("evaluator") ? { evaluator: fields.get("evaluator")!.value } : {}),
    ...(fields.has("objection") ? { objection: fields.get("objection")!.value } : {}),
    ...(doneCommit ? { done: { commit: doneCommit, at: fields.get("done_at")?.value ?? "" } } : {}),
  };
  return { ok: true, contract };
}

/** The checklist lines of a Markdown body; an empty or repeated assertion is a problem at its line. */
export function readAssertions(
  body: string, firstLine: number,
): { ok: true; assertions: Assertion[] } | ({ ok: false } & FileProblem) {
  const assertions: Assertion[] = [];
  const lines = body.split("\n");
  for (const [index, raw] of lines.entries()) {
    const match = CHECKBOX.exec(raw.replace(/\r$/, ""));
    if (!match) continue;
    const line = firstLine + index;
    const text = match[2]!.trim();
    if (text === "") return fail(
      line,
      "an empty checklist item",
      "write a testable assertion after the box, e.g. - [ ] val_bpb is below 0.98 on the verifier's run",
    );
    const twin = assertions.find((assertion) => assertion.text === text);
    if (twin) return fail(line, `the assertion repeats line ${twin.line}`, "keep one: each assertion is checked once");
    assertions.push({ text, line, checked: match[1] !== " " });
  }
  return { ok: true, assertions };
}

/** The contract file as written: front matter in a fixed order, then the body as drafted. */
export function formatContract(contract: Contract): string {
  const signature = (party: Party) =>
    (contract.signed[party] ? `${contract.signed[party].at} sha256:${contract.signed[party].hash}` : undefined);
  return formatFrontMatter([
    ["sprint", String(contract.sprint)],
    ["status", contract.status],
    ["generator", contract.generator],
    ["evaluator", contract.evaluator],
    ["generator_signed", signature("generator")],
    ["evaluator_signed", signature("evaluator")],
    ["objection", contract.objection],
    ["done_commit", contract.done?.commit], ["done_at", contract.done?.at],
  ], contract.body);
}

/**
 * Trailing spaces and blank lines at either end do not change what was agreed, nor do control characters, which the
 * stored file never keeps; anything else does.
 */
export function hashBody(body: string): string {
  const lines = cleanText(body).split("\n").map((line) => line.replace(/\s+$/, ""));
  const normalized = lines.join("\n").replace(/^\n+|\n+$/g, "");
  return createHash("sha256").update(normalized).digest("hex").slice(0, 16);
}

function parseSignature(field: Field): { ok: true; signature: Signature } | ({ ok: false } & FileProblem) {
  const match = SIGNATURE.exec(field.value);
  if (!match || Number.isNaN(Date.parse(match[1]!))) return fail(
    field.line,
    `signature "${field.value}" is not "<time> sha256:<hash>"`,
    "sign with `org contract sign` rather than by hand",
  );
  return { ok: true, signature: { at: match[1]!, hash: match[2]! } };
}

function fail(line: number, reason: string, fix: string): { ok: false } & FileProblem {
  return { ok: false, line, reason, fix };
}
