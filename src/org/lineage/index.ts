export {
  buildLineage, type KeptRow, type Lineage, type LineageInput, type LineageLink, type LineageNode, type LineageShare,
  type Relation,
} from "./build-lineage.js";
export { findKeptAncestors, type CommitGraph, type KeptAncestors } from "./kept-ancestors.js";
export { crossFraction, describeShare, shareOf, shareOfProgram } from "./share.js";
