// train.mjs — the file you change. A tiny two-layer MLP fit with minibatch SGD.
// Everything here is fair game: the constants, the model, the optimizer. prepare.mjs is not.
// Run: node train.mjs   (ORG_SEED=<n> picks the random init and batch order; default 0)

const LEARNING_RATE = 0.01;
const MOMENTUM = 0.5;
const HIDDEN = 16;
const STEPS = 20000;
const BATCH_SIZE = 32;
const WEIGHT_DECAY = 0.005;
const INIT_SCALE = 0.5;

import { TRAIN, N_FEATURES, N_TRAIN, createRng, gaussian, evaluate } from "./prepare.mjs";

const started = Date.now();
const seed = Number(process.env.ORG_SEED ?? 0);
const rng = createRng(seed + 1);

// Parameters: w1 [HIDDEN x N_FEATURES], b1 [HIDDEN], w2 [HIDDEN], b2 scalar; Gaussian init.
const w1 = Float64Array.from({ length: HIDDEN * N_FEATURES }, () => INIT_SCALE * gaussian(rng));
const b1 = new Float64Array(HIDDEN);
const w2 = Float64Array.from({ length: HIDDEN }, () => INIT_SCALE * gaussian(rng));
const b2 = new Float64Array(1);
const params = [w1, b1, w2, b2];
const grads = params.map((p) => new Float64Array(p.length));
const velocity = params.map((p) => new Float64Array(p.length));
const hidden = new Float64Array(HIDDEN);

function forward(x) {
  let out = b2[0];
  for (let h = 0; h < HIDDEN; h++) {
    let z = b1[h];
    for (let f = 0; f < N_FEATURES; f++) z += w1[h * N_FEATURES + f] * x[f];
    hidden[h] = Math.tanh(z);
    out += w2[h] * hidden[h];
  }
  return out;
}

// Accumulates the gradient of 0.5 * (prediction - y)² for one example; returns the squared error.
function backward(x, y) {
  const error = forward(x) - y;
  const [gw1, gb1, gw2, gb2] = grads;
  gb2[0] += error;
  for (let h = 0; h < HIDDEN; h++) {
    gw2[h] += error * hidden[h];
    const dz = error * w2[h] * (1 - hidden[h] * hidden[h]);
    gb1[h] += dz;
    for (let f = 0; f < N_FEATURES; f++) gw1[h * N_FEATURES + f] += dz * x[f];
  }
  return error * error;
}

function step() {
  for (const g of grads) g.fill(0);
  let loss = 0;
  for (let b = 0; b < BATCH_SIZE; b++) {
    const i = Math.floor(rng() * N_TRAIN);
    loss += backward(TRAIN.xs[i], TRAIN.ys[i]);
  }
  for (let p = 0; p < params.length; p++) {
    const param = params[p];
    for (let k = 0; k < param.length; k++) {
      const g = grads[p][k] / BATCH_SIZE + WEIGHT_DECAY * param[k];
      velocity[p][k] = MOMENTUM * velocity[p][k] - LEARNING_RATE * g;
      param[k] += velocity[p][k];
    }
  }
  return loss / BATCH_SIZE;
}

for (let s = 1; s <= STEPS; s++) {
  const loss = step();
  // Like autoresearch: a diverged run prints FAIL and exits 1, so the verifier records a crash.
  if (!Number.isFinite(loss) || loss > 100) {
    console.log(`step ${s}: train_loss ${loss}`);
    console.log("FAIL");
    process.exit(1);
  }
  if (s % 1000 === 0) console.log(`step ${s}: train_loss ${loss.toFixed(6)}`);
}

const valLoss = evaluate(forward);
if (!Number.isFinite(valLoss)) {
  console.log("FAIL");
  process.exit(1);
}
const seconds = (Date.now() - started) / 1000;
console.log("---");
console.log(`val_loss: ${valLoss.toFixed(6)}`);
console.log(`training_seconds: ${seconds.toFixed(1)}`);
console.log("peak_vram_mb: 0.0");
console.log(`num_steps: ${STEPS}`);
console.log(`num_params: ${params.reduce((n, p) => n + p.length, 0)}`);
console.log(`seed: ${seed}`);
