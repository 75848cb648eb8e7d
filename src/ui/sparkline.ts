const BLOCKS = "▁▂▃▄▅▆▇█";

/** The last `width` finite values as block characters, lowest ▁ to highest █; a flat series sits mid-height. */
export function renderSparkline(values: number[], width: number): string {
  if (width <= 0) return "";
  const shown = values.filter(Number.isFinite).slice(-Math.floor(width));
  if (shown.length === 0) return "";
  const low = Math.min(...shown);
  const span = Math.max(...shown) - low;
  const top = BLOCKS.length - 1;
  return shown.map((value) => BLOCKS[span === 0 ? Math.floor(top / 2) : Math.round(((value - low) / span) * top)])
    .join("");
}
