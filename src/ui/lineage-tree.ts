// `org lineage` as text: the base at the root, each keep under what it built on, one line each, fitted to the terminal.
import { describeShare, type Lineage, type LineageNode } from "../domain/lineage/index.js";
import { cleanLine } from "../domain/safe-text.js";
import { cutToWidth } from "./text-width.js";

/** The tree, the keeps whose lineage is unknown under their own root, and the share line last. */
export function renderLineage(lineage: Lineage, metricName: string, width?: number): string {
  const children = new Map<string, LineageNode[]>();
  const unknown: LineageNode[] = [];
  for (const node of lineage.nodes) {
    const parent = node.builtOn[0]?.commit;
    if (parent === undefined) unknown.push(node);
    else children.set(parent, [...(children.get(parent) ?? []), node]);
  }
  const lines: string[] = [`base ${lineage.base?.slice(0, 7) ?? "(unknown: no org.json)"}`];
  // An only child goes straight below its parent, in its column: a long chain of keeps does not march off the screen.
  const draw = (nodes: LineageNode[], prefix: string, chained: boolean) => nodes.forEach((node, index) => {
    const last = index === nodes.length - 1;
    const straight = chained && nodes.length === 1;
    lines.push(`${prefix}${straight ? "" : last ? "└─ " : "├─ "}${describeNode(node, metricName)}`);
    draw(children.get(node.commit) ?? [], straight ? prefix : `${prefix}${last ? "   " : "│  "}`, true);
  });
  draw(lineage.base ? (children.get(lineage.base) ?? []) : [], "", false);
  if (unknown.length > 0) {
    lines.push("unknown: what these built on");
    draw(unknown, "", false);
  }
  lines.push(describeShare(lineage.share));
  return (width === undefined ? lines : lines.map((line) => cutToWidth(line, width))).join("\n");
}

/** "abc1234 researcher-2 val_bpb 0.975000 follows researcher-1: hidden 32". */
function describeNode(node: LineageNode, metricName: string): string {
  const how = [
    ...node.builtOn.flatMap((link, index) => {
      const which = index > 0 ? ` (${link.commit.slice(0, 7)})` : "";
      if (link.relation === "follow") return [`follows ${link.author}${which}`];
      if (index > 0) return [`also on ${link.commit.slice(0, 7)}`];
      return [];
    }),
    ...(node.carries ? [`stack of ${node.carries.author}'s ${node.carries.commit.slice(0, 7)}${onto(node)}`] : []),
    ...(node.adoptedBy.length > 0 ? [`adopted by ${node.adoptedBy.join(", ")}`] : []),
    ...(node.unknown ? [node.unknown] : []),
  ];
  const text = cleanLine(node.description);
  const marks = how.length > 0 ? ` [${how.join("; ")}]` : "";
  return `${node.commit.slice(0, 7)} ${node.agent} ${metricName} ${node.metric.toFixed(6)}${marks} ${text}`;
}

function onto(node: LineageNode): string {
  const link = node.builtOn[0];
  return link && link.relation !== "base" ? ` onto ${link.author}'s` : "";
}
