// How wide each column of a table may be on a terminal of a given width: the plain columns whole, the flexible ones
// (cut or wrapped) narrowed widest first, never under their floor.

/** Two spaces between columns, as every table of org has always had. */
export const GAP = 2;

export interface ColumnNeed {
  /** Columns its widest cell takes. */
  natural: number;
  /** Columns it may narrow to; `natural` for a column that must stay whole. */
  floor: number;
}

/** The whole table's columns at these column widths. */
function measureTable(widths: number[]): number {
  return widths.reduce((sum, one) => sum + one, 0) + GAP * Math.max(widths.length - 1, 0);
}

/**
 * Each column's width within `width` columns: the flexible ones share what the rest leave, the widest narrowed first
 * (so a long description gives way before a short note); undefined when even every floor is too wide.
 */
export function allocateColumns(needs: ColumnNeed[], width: number): number[] | undefined {
  const capped = (cap: number) => needs.map((need) => Math.max(need.floor, Math.min(need.natural, cap)));
  if (measureTable(needs.map((need) => need.natural)) <= width) return needs.map((need) => need.natural);
  if (measureTable(needs.map((need) => need.floor)) > width) return undefined;
  let cap = Math.max(...needs.map((need) => need.natural));
  while (cap > 0 && measureTable(capped(cap)) > width) cap -= 1;
  // Columns left over when the cap is not exact make whole the narrowed columns they can, the nearest whole first: a
  // header that fits whole beats one more letter of a long description.
  const widths = capped(cap);
  let spare = width - measureTable(widths);
  const short = widths.map((_, index) => index).filter((index) => widths[index]! < needs[index]!.natural);
  for (const index of short.sort((a, b) => needs[a]!.natural - widths[a]! - (needs[b]!.natural - widths[b]!))) {
    const deficit = needs[index]!.natural - widths[index]!;
    if (deficit > spare) break;
    widths[index] = needs[index]!.natural;
    spare -= deficit;
  }
  // What is left widens the first column still narrowed.
  for (const index of short) {
    const more = Math.min(spare, needs[index]!.natural - widths[index]!);
    widths[index] = widths[index]! + more;
    spare -= more;
  }
  return widths;
}
