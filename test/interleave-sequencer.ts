import { statSync } from "node:fs";
import { BaseSequencer, type TestSpecification } from "vitest/node";

// One pool for unit, clients and e2e: the real CLIs burn CPU while the e2e files mostly wait on processes, so the
// queue mixes them, one clients file to every two e2e files, and the unit files fill the pool's gaps at the end.
const PATTERN = ["clients", "e2e", "e2e"];

/** Bigger files first within a project: with no timings cached (a clean clone), size is the best guess of length. */
function sortBySize(specs: TestSpecification[]): TestSpecification[] {
  const size = new Map(specs.map((spec) => [spec, statSync(spec.moduleId, { throwIfNoEntry: false })?.size ?? 0]));
  return [...specs].sort((a, b) => (size.get(b) ?? 0) - (size.get(a) ?? 0));
}

/** The queue: the PATTERN's projects taken in turn while any is left, then every other project's files. */
export function interleaveProjects(specs: TestSpecification[]): TestSpecification[] {
  const queues = new Map<string, TestSpecification[]>();
  for (const spec of specs) queues.set(spec.project.name, [...(queues.get(spec.project.name) ?? []), spec]);
  for (const [name, queue] of queues) queues.set(name, sortBySize(queue));
  const mixed: TestSpecification[] = [];
  const left = () => PATTERN.some((name) => (queues.get(name)?.length ?? 0) > 0);
  for (let turn = 0; left(); turn++) {
    const next = queues.get(PATTERN[turn % PATTERN.length])?.shift();
    if (next) mixed.push(next);
  }
  return [...mixed, ...[...queues.values()].flat()];
}

export default class InterleaveSequencer extends BaseSequencer {
  override async sort(specs: TestSpecification[]): Promise<TestSpecification[]> {
    return interleaveProjects(specs);
  }
}
