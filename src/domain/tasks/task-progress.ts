const MARKER = "<!-- org moved older lines of this file to progress-archive.md -->";

/**
 * An agent's progress.md over `maxBytes` keeps its newest lines (the bottom) within three quarters of
 * the cap, so it is not trimmed again at the next write; the oldest lines go to the archive.
 */
export function trimProgress(text: string, maxBytes: number): { kept: string; archived: string[] } | undefined {
  if (Buffer.byteLength(text) <= maxBytes) return undefined;
  const lines = text.replace(/\n$/, "").split("\n").filter((line) => line !== MARKER);
  const budget = Math.floor((maxBytes * 3) / 4) - Buffer.byteLength(`${MARKER}\n`);
  let size = 0;
  let start = lines.length;
  while (start > 0 && size + Buffer.byteLength(`${lines[start - 1]}\n`) <= budget) {
    size += Buffer.byteLength(`${lines[--start]}\n`);
  }
  // One line longer than the whole budget: keep its tail rather than nothing.
  if (start === lines.length) return {
    kept: `${MARKER}\n${lines.at(-1)!.slice(-Math.max(0, budget - 1))}\n`,
    archived: lines,
  };
  return { kept: `${MARKER}\n${lines.slice(start).join("\n")}\n`, archived: lines.slice(0, start) };
}
