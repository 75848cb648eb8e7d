// One step of the baseline researcher: nudge one named numeric constant of train.mjs, nothing smarter.

/** Uniform numbers in [0, 1), injectable so a seeded run proposes the same changes every time. */
export type Rng = () => number;

export interface NumericConstant {
  name: string;
  /** The literal as written, e.g. "0.01" or "3000". */
  literal: string;
  value: number;
  isInteger: boolean;
  /** Offset of the literal in the source. */
  index: number;
}

export interface Proposal {
  source: string;
  description: string;
}

// Module-level `const UPPER_CASE = <positive literal>;` (JS) or `UPPER_CASE = <literal>`
// (Python) lines: the knobs a train script exposes.
const CONSTANT_LINE = /^((?:const )?([A-Z][A-Z0-9_]*) = )(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|\.\d+)(?=;|[ \t]*(?:#.*)?$)/gm;
const FLOAT_FACTORS = [0.5, 0.8, 1.25, 2];
const SMALL_INTEGER = 8;

/**
 * The positive numeric constants of a train script, in source order; zeros are skipped because
 * scaling cannot move them.
 */
export function findConstants(source: string): NumericConstant[] {
  const constants: NumericConstant[] = [];
  for (const match of source.matchAll(CONSTANT_LINE)) {
    const literal = match[3]!;
    const value = Number(literal);
    if (!(value > 0)) continue;
    constants.push({
      name: match[2]!,
      literal,
      value,
      isInteger: !/[.eE]/.test(literal),
      index: match.index + match[1]!.length,
    });
  }
  return constants;
}

/**
 * Perturb one constant chosen at random, among `focus` where it names any; undefined when the
 * source has none to perturb.
 */
export function proposeChange(source: string, rng: Rng, focus?: ReadonlySet<string>): Proposal | undefined {
  const all = findConstants(source);
  const focused = focus ? all.filter((constant) => focus.has(constant.name)) : [];
  const constants = focused.length > 0 ? focused : all;
  if (constants.length === 0) return undefined;
  const constant = constants[Math.min(constants.length - 1, Math.floor(rng() * constants.length))]!;
  const next = constant.isInteger ? perturbInteger(constant.value, rng() < 0.5) : perturbFloat(constant.value, rng);
  const end = constant.index + constant.literal.length;
  return {
    source: source.slice(0, constant.index) + next + source.slice(end),
    description: `${constant.name} ${constant.literal} -> ${next}`,
  };
}

// Enough draws to find an untried step among a few constants × directions, few enough to stay cheap.
const UNTRIED_DRAWS = 32;

/**
 * The first proposal whose description is not in `tried`, and how many tried ones it passed over. When every single
 * step drawn was tried on this code, two steps at once reach code nobody judged; then, past a focus, any constant; the
 * last draw when even those were.
 */
export function proposeUntried(
  source: string, rng: Rng, tried: ReadonlySet<string>, focus?: ReadonlySet<string>,
): (Proposal & { skipped: number }) | undefined {
  let proposal = proposeChange(source, rng, focus);
  let skipped = 0;
  while (proposal && tried.has(proposal.description) && skipped < 2 * UNTRIED_DRAWS) {
    skipped++;
    proposal = skipped < UNTRIED_DRAWS ? proposeChange(source, rng, focus) : proposeTwo(source, rng, focus);
  }
  // Every step within the focus was tried on this code: the rest of the file, rather than a change already judged.
  if (focus && proposal && tried.has(proposal.description)) {
    const open = proposeUntried(source, rng, tried);
    return open && { ...open, skipped: skipped + open.skipped };
  }
  return proposal && { ...proposal, skipped };
}

function proposeTwo(source: string, rng: Rng, focus?: ReadonlySet<string>): Proposal | undefined {
  const first = proposeChange(source, rng, focus);
  const second = first && proposeChange(first.source, rng, focus);
  // The second step can undo the first (0.01 -> 0.0125 -> 0.01): no change is no proposal worth a run.
  if (!first || !second || second.source === source) return first;
  return { source: second.source, description: `${first.description}; ${second.description}` };
}

/**
 * mulberry32, a seeded uniform source in [0, 1): the same draws on every machine
 * (`ORG_DEMO_SEED`'s proposals, `org compare`'s bootstrap).
 */
export function seededRng(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Small counts (layers, heads) move by one; large ones (steps, widths) by a quarter, and never below 1.
function perturbInteger(value: number, up: boolean): string {
  if (value < SMALL_INTEGER) return String(up || value <= 1 ? value + 1 : value - 1);
  const scaled = up ? Math.round(value * 1.25) : Math.max(1, Math.round(value / 1.25));
  return String(scaled === value ? value + (up ? 1 : -1) : scaled);
}

// Multiplicative, so the step suits 3e-4 and 0.9 alike and the sign never flips.
function perturbFloat(value: number, rng: Rng): string {
  const factor = FLOAT_FACTORS[Math.min(FLOAT_FACTORS.length - 1, Math.floor(rng() * FLOAT_FACTORS.length))]!;
  let scaled = value * factor;
  // At the edges of the double range, step the other way instead of to 0 or Infinity.
  if (!(scaled > 0) || !Number.isFinite(scaled)) scaled = factor < 1 ? value * 2 : value / 2;
  const text = String(Number(scaled.toPrecision(4)));
  // Keep the literal a float, or the next step would treat 2 as an integer and move it by one.
  return /[.e]/.test(text) ? text : `${text}.0`;
}
