// Reads numbers out of a run log: the metric the verifier judges and the peak memory it records.

/**
 * The metric printed by a run: the first capture group of the LAST line that matches `pattern`.
 * The last line wins because a training script may print intermediate values before the final one.
 * A final value that is not a finite number (`nan`, `inf`) is undefined, never an older line's value.
 */
export function parseMetric(logText: string, pattern: string | RegExp): number | undefined {
  const regex = compileLinePattern(pattern);
  let last: string | undefined;
  for (const line of logText.split(/\r?\n/)) {
    const match = regex.exec(line);
    if (match) last = match[1] ?? match[0];
  }
  return last === undefined ? undefined : toFiniteNumber(last);
}

/**
 * Peak memory in GB with one decimal, from a pattern whose capture group is megabytes (autoresearch's
 * peak_vram_mb / 1024).
 */
export function parseMemoryGb(logText: string, pattern: string | RegExp): number | undefined {
  const megabytes = parseMetric(logText, pattern);
  return megabytes === undefined ? undefined : Math.round((megabytes / 1024) * 10) / 10;
}

// One line at a time with `m` semantics, so `^` and `$` anchor to that line; a global or sticky flag would carry
// lastIndex between lines.
function compileLinePattern(pattern: string | RegExp): RegExp {
  if (typeof pattern === "string") return new RegExp(pattern, "m");
  const flags = pattern.flags.replace(/[gy]/g, "");
  return new RegExp(pattern.source, flags.includes("m") ? flags : `${flags}m`);
}

// Number("") is 0, so blank captures must be caught before the conversion.
function toFiniteNumber(text: string): number | undefined {
  if (text.trim() === "") return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}
