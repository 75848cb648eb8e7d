// The init folder's public surface: what `org init` reads of a repo and the org.yaml it proposes from it.
export { PROBED_PROGRAMS, SHARED_FOLDERS, pickFilesToRead, type RepoListing } from "./repo-listing.js";
export { proposeOrg, type OrgProposal } from "./propose-org.js";
export { GATE_SCRIPTS, proposeSoftware, type SoftwareProposal } from "./software.js";
