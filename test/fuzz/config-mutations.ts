import { baseConfig, toYaml, type BaseOptions } from "./base-config.js";
import { OBJECT_MUTATIONS } from "./object-mutations.js";
import { createRng } from "./rng.js";
import { TEXT_MUTATIONS } from "./text-mutations.js";

/** One generated org.yaml: the kind of damage, what exactly changed, and the text. */
export interface ConfigMutation {
  index: number;
  kind: string;
  what: string;
  text: string;
}

export const MUTATION_KINDS = [...Object.keys(OBJECT_MUTATIONS), ...Object.keys(TEXT_MUTATIONS)];

/**
 * `count` mutations of the base org.yaml, the same for the same seed. Kinds take turns so every kind is
 * covered from the first few dozen; the seed picks where and what within each.
 */
export function generateMutations(options: { seed: number; count: number; base: BaseOptions }): ConfigMutation[] {
  const rng = createRng(options.seed);
  const valid = toYaml(baseConfig(options.base));
  return Array.from({ length: options.count }, (_, index) => {
    const kind = MUTATION_KINDS[index % MUTATION_KINDS.length]!;
    const objectMutation = OBJECT_MUTATIONS[kind];
    if (objectMutation) {
      const doc = baseConfig(options.base);
      const what = objectMutation(doc, rng);
      // Now and then two things are wrong at once: every problem must still be reported.
      const extra =
        rng.next() < 0.15 ? `; ${OBJECT_MUTATIONS[rng.pick(Object.keys(OBJECT_MUTATIONS))]!(doc, rng)}` : "";
      return { index, kind, what: what + extra, text: toYaml(doc) };
    }
    const { text, what } = TEXT_MUTATIONS[kind]!(valid, rng);
    return { index, kind, what, text };
  });
}

/** The mutation lines a problem may take: `org.yaml:LINE:COL: what — how to fix`, on one line. */
export const PROBLEM_LINE = /^org\.yaml:\d+:\d+: [^\n]+ — [^\n]+$/;

/** Why `problems` are not a clean rejection, or undefined when they are. */
export function explainUnclean(problems: readonly string[]): string | undefined {
  if (problems.length === 0) return "rejected with no problem at all";
  const bad = problems.find((problem) => !PROBLEM_LINE.test(problem) || /\n|\s+at \S+ \(|Error:/.test(problem));
  return bad === undefined ? undefined : `not a file:line:col line: ${JSON.stringify(bad.slice(0, 300))}`;
}
