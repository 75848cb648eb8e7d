// The JSON objects a CLI printed among other text (warnings, stack traces on stderr), read outermost first.

/** Every top-level JSON object in `text`, in order: one that parses is taken whole, its inner braces skipped. */
export function listJsonObjects(text: string): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  for (let start = text.indexOf("{"); start >= 0; start = text.indexOf("{", start + 1)) {
    const end = closingBrace(text, start);
    if (end === undefined) continue;
    try {
      const value: unknown = JSON.parse(text.slice(start, end + 1));
      if (value === null || typeof value !== "object" || Array.isArray(value)) continue;
      found.push(value as Record<string, unknown>);
      start = end;
    } catch {
      // not JSON from here: an object may start at a later brace
    }
  }
  return found;
}

// Where the object opened at `start` closes, strings and their escapes aside; JSON.parse then checks the cut.
function closingBrace(text: string, start: number): number | undefined {
  let depth = 0;
  let quoted = false;
  for (let at = start; at < text.length; at++) {
    const char = text[at];
    if (quoted) {
      if (char === "\\") at += 1;
      else if (char === '"') quoted = false;
    } else if (char === '"') quoted = true;
    else if (char === "{") depth += 1;
    else if (char === "}" && --depth === 0) return at;
  }
  return undefined;
}
