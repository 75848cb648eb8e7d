// One order for strings on every machine: hashes, ids and queues must not follow the locale, as localeCompare does.

/** a before b by UTF-16 code unit, as `<` compares strings: negative, zero or positive. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
