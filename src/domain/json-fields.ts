// Field-by-field checks of a record's JSON, for the owners whose readers must not load zod: `org status` reads their
// records, and zod's load was a fifth of its CPU (test/cli/commands/status-load.test.ts).

export type Fields = Record<string, unknown>;

/** A record's text as JSON; undefined for none, a write cut short, or anything else that is not JSON. */
export function parseJsonText(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export const isFields = (value: unknown): value is Fields =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export const isString = (value: unknown): value is string => typeof value === "string";

export const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/** The check, or the field left out. */
export const isOptional = <T>(check: (value: unknown) => value is T) => (value: unknown): value is T | undefined =>
  value === undefined || check(value);


/** An array each of whose items passes the check. */
export const isArrayOf = <T>(check: (value: unknown) => value is T) => (value: unknown): value is T[] =>
  Array.isArray(value) && value.every(check);

export const isBoolean = (value: unknown): value is boolean => typeof value === "boolean";

/** The check, or null. */
export const isNullable = <T>(check: (value: unknown) => value is T) => (value: unknown): value is T | null =>
  value === null || check(value);

/** An object each of whose values passes the check. */
export const isMapOf = <T>(check: (value: unknown) => value is T) => (value: unknown): value is Record<string, T> =>
  isFields(value) && Object.values(value).every(check);
