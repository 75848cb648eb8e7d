// Git's object formats as node reads them: a loose object's header and a tree's entries. What is not in git's exact
// form is undefined; each caller says what it accepts beyond that (which kinds, which modes) and what it does instead.

export type ObjectKind = "commit" | "tree" | "blob" | "tag";

/** One entry of a tree: `<mode> <name>\0<20 bytes>`. */
export interface TreeEntry { mode: string; name: Buffer; hash: string }

/**
 * An inflated loose object split at its header, which must be exactly git's: "blob 012" is no size git writes, and a
 * store that names the body anew would hold no object of the name it was given.
 */
export function splitLooseObject(raw: Buffer): { kind: ObjectKind; body: Buffer } | undefined {
  const nul = raw.indexOf(0);
  const header = /^(commit|tree|blob|tag) (\d+)$/.exec(raw.subarray(0, Math.max(nul, 0)).toString("latin1"));
  if (nul < 0 || !header || header[2] !== String(raw.length - nul - 1)) return undefined;
  return { kind: header[1] as ObjectKind, body: raw.subarray(nul + 1) };
}

/** A tree's entries in their order; undefined when one is cut short. */
export function parseTreeEntries(body: Buffer): TreeEntry[] | undefined {
  const entries: TreeEntry[] = [];
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    const nul = body.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 21 > body.length) return undefined;
    const mode = body.subarray(at, space).toString("latin1");
    entries.push({ mode, name: body.subarray(space + 1, nul), hash: body.subarray(nul + 1, nul + 21).toString("hex") });
    at = nul + 21;
  }
  return entries;
}
