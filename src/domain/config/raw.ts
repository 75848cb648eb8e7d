// Rules read the raw YAML value, not zod's output, so they run (and report) even when the schema fails.
export type Raw = Record<string, unknown>;

/** A map-shaped value as a record; anything else is the schema's problem, not a rule's. */
export function asMap(value: unknown): Raw | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Raw) : undefined;
}
