// prepare.mjs — the fixed data and the fixed metric of the demo.
// DO NOT CHANGE — this is the fixed metric. The verifier restores this file before every run
// and rejects any commit that touches it; only train.mjs is yours to change.

export const N_FEATURES = 2;
export const N_TRAIN = 256;
export const N_VAL = 512;
export const NOISE = 0.1;
const DATA_SEED = 1337;

/** A small seeded PRNG (mulberry32): the same seed gives the same numbers on every machine. */
export function createRng(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal sample (Box-Muller). */
export function gaussian(rng) {
  const u = 1 - rng();
  const v = rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

// The hidden function to learn: smooth, nonlinear, with an interaction between the two inputs.
function target(x0, x1) {
  return Math.sin(3 * x0) * Math.cos(2 * x1) + 0.5 * Math.sin(x0 * x1) + 0.2 * x0;
}

function makeSplit(rng, n) {
  const xs = [];
  const ys = [];
  for (let i = 0; i < n; i++) {
    const x0 = rng() * 4 - 2;
    const x1 = rng() * 4 - 2;
    xs.push([x0, x1]);
    ys.push(target(x0, x1) + NOISE * gaussian(rng));
  }
  return { xs, ys };
}

const dataRng = createRng(DATA_SEED);
export const TRAIN = makeSplit(dataRng, N_TRAIN);
const VAL = makeSplit(dataRng, N_VAL);

/**
 * The metric: mean squared error of `predict([x0, x1]) -> number` on the held-out split.
 * The noise floor is NOISE² = 0.01; a non-finite prediction makes the whole loss NaN.
 */
export function evaluate(predict) {
  let total = 0;
  for (let i = 0; i < N_VAL; i++) {
    const error = predict(VAL.xs[i]) - VAL.ys[i];
    total += error * error;
  }
  return total / N_VAL;
}
