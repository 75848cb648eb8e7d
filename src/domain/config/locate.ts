import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Document } from "yaml";
import * as z from "zod";
import { ConfigSchema } from "./schema.js";

/** One thing wrong with org.yaml: where (a path into the document), what, and how to fix it. */
export interface Problem {
  path: (string | number)[];
  message: string;
  fix: string;
  /** Point at the key itself (a bad name) rather than its value; the default is the value. */
  at?: "key" | "value";
}

/** A problem already placed at an offset of the text. */
export interface PlacedProblem {
  offset: number;
  message: string;
  fix: string;
}

/** Parse for positions only; errors are the loader's business. */
export function parseForPositions(text: string): { doc: Document; lineCounter: LineCounter } {
  const lineCounter = new LineCounter();
  // logLevel "error": a collection used as a key would otherwise print a Node warning next to our problem lines.
  return { doc: parseDocument(text, { lineCounter, prettyErrors: false, logLevel: "error" }), lineCounter };
}

/**
 * The offset of the node `path` names: the key or the value of its pair. A path that
 * leaves the document (a missing key) stops at the deepest node that exists, the map that lacks it.
 */
function locateOffset(doc: Document, path: readonly (string | number)[], at: "key" | "value" = "value"): number {
  let node: unknown = doc.contents;
  let offset = startOf(node) ?? 0;
  for (const [index, segment] of path.entries()) {
    if (isAlias(node)) node = node.resolve(doc);
    const last = index === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((item) => keyText(item.key) === String(segment));
      if (!pair) return offset;
      const keyOffset = startOf(pair.key) ?? offset;
      // `key:` with nothing after it has an empty value node; the key is where a person looks.
      if ((last && at === "key") || isEmpty(pair.value)) return keyOffset;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === "number" && node.items[segment] !== undefined) {
      node = node.items[segment];
    } else {
      return offset;
    }
    offset = startOf(node) ?? offset;
  }
  return offset;
}

/** `file:line:col: what — fix` lines in document order, without repeats. */
export function renderPlaced(file: string, lineCounter: LineCounter, placed: readonly PlacedProblem[]): string[] {
  const ordered = placed.map((problem, order) => ({ problem, order }))
    .sort((a, b) => a.problem.offset - b.problem.offset || a.order - b.order);
  const lines = ordered.map(({ problem }) => {
    const { line, col } = lineCounter.linePos(problem.offset);
    return `${file}:${Math.max(line, 1)}:${Math.max(col, 1)}: ${escapeControls(problem.message)} `
      + `— ${escapeControls(problem.fix)}`;
  });
  return [...new Set(lines)];
}

// A name or value quoted in a message may hold a newline or a bidi override: one problem must stay one honest line.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * Control, line-breaking and bidi characters as \n or \u202e, so a problem prints as one line
 * that shows what is there.
 */
function escapeControls(text: string): string {
  return text.replace(CONTROLS, (char) => {
    if (char === "\n") return "\\n";
    if (char === "\t") return "\\t";
    if (char === "\r") return "\\r";
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}

export function placeProblems(doc: Document, problems: readonly Problem[]): PlacedProblem[] {
  return problems.map((problem) =>
    ({ offset: locateOffset(doc, problem.path, problem.at), message: problem.message, fix: problem.fix }));
}

/** For problems found after loading (e.g. GPU leases by the planner): formats with line:col. */
export function formatProblems(file: string, text: string, problems: readonly Problem[]): string[] {
  const { doc, lineCounter } = parseForPositions(text);
  return renderPlaced(file, lineCounter, placeProblems(doc, problems));
}

/** The schema node at a path, unwrapped from optional and default, with what it documents. */
export interface FoundSchema {
  schema: z.ZodType;
  description?: string;
  examples: unknown[];
  defaultValue?: unknown;
  /** The schema carries its own message (a noun phrase such as "a duration such as 90s"). */
  customError: boolean;
}

export function findSchema(path: readonly (string | number)[]): FoundSchema | undefined {
  let found = unwrapSchema(ConfigSchema);
  for (const segment of path) {
    let schema = found.schema;
    // A union (share entries) is entered through the branch that can hold this segment.
    if (schema instanceof z.ZodUnion) {
      const branches = (schema.options as z.ZodType[]).map((option) => unwrapSchema(option).schema);
      schema = branches.find((branch) => (typeof segment === "number"
        ? branch instanceof z.ZodArray
        : branch instanceof z.ZodObject && segment in branch.shape)) ?? schema;
    }
    let next: z.ZodType | undefined;
    if (schema instanceof z.ZodObject) next = (schema.shape as Record<string, z.ZodType>)[String(segment)];
    else if (schema instanceof z.ZodRecord) next = schema.valueType as z.ZodType;
    else if (schema instanceof z.ZodArray) next = schema.element as z.ZodType;
    if (!next) return undefined;
    found = unwrapSchema(next);
  }
  return found;
}

function unwrapSchema(outer: z.ZodType): FoundSchema {
  let schema = outer;
  const found: FoundSchema = { schema, examples: [], customError: false };
  for (;;) {
    const meta = z.globalRegistry.get(schema);
    found.description ??= meta?.description;
    if (found.examples.length === 0 && Array.isArray(meta?.examples)) found.examples = meta.examples;
    if (schema instanceof z.ZodDefault && !("defaultValue" in found)) found.defaultValue = schema.def.defaultValue;
    // A preprocessed section (verify, with its judge) is described by the schema its input goes into.
    if (schema instanceof z.ZodPipe) {
      schema = schema.def.out as z.ZodType;
      continue;
    }
    if (!(schema instanceof z.ZodDefault || schema instanceof z.ZodOptional)) break;
    schema = schema.unwrap() as z.ZodType;
  }
  return { ...found, schema, customError: schema.def.error !== undefined };
}

/** Keys a map at this spot may hold; for a union (share entries) those of its map branch. */
export function knownKeys(found: FoundSchema | undefined): string[] {
  const schema = found?.schema;
  const branches = schema instanceof z.ZodUnion ? (schema.options as z.ZodType[]) : schema ? [schema] : [];
  return branches.flatMap((branch) => (branch instanceof z.ZodObject ? Object.keys(branch.shape) : []));
}

/** zod's issue path as document path segments. */
export function toPath(path: readonly PropertyKey[]): (string | number)[] {
  return path.map((segment) => (typeof segment === "number" ? segment : String(segment)));
}

/** The parsed value at a path, or undefined where the document has nothing. */
export function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let value = root;
  for (const segment of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string | number, unknown>)[segment];
  }
  return value;
}

function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}

function startOf(node: unknown): number | undefined {
  return (node as { range?: [number, number, number] } | null)?.range?.[0];
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  return isScalar(value) && value.value === null && value.range !== undefined && value.range !== null
    && value.range[0] === value.range[1];
}
