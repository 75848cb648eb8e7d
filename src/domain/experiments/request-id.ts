/**
 * The id of a request made at `at` for `agent`: it sorts by time and names the request's file in state/queue and its
 * verdict's; `tag` says what it is (a short commit, `baseline`, `confirm-<commit>`, `stack-<commit>`).
 */
export function requestId(at: Date, agent: string, tag: string): string {
  return `${at.toISOString().replace(/[:.]/g, "-")}-${agent}-${tag}`;
}
