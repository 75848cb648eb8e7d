export { buildLineage, type Lineage, type LineageInput } from "./build-lineage.js";
export type { KeptRow, LineageLink, LineageNode, LineageShare, Relation } from "./node.js";
export { findKeptAncestors, type CommitGraph, type KeptAncestors } from "./kept-ancestors.js";
export { crossFraction, describeShare, shareOf, shareOfProgram } from "./share.js";
