/** What loading needs to know about the disk and git; src/adapters/probes/config.ts is the real one. */
export interface ConfigProbe {
  exists(absPath: string): Promise<boolean>;
  isGitRepo(absDir: string): Promise<boolean>;
  /** The full sha `rev` names in the repo, or null. */
  resolveCommit(absDir: string, rev: string): Promise<string | null>;
  /** The size in bytes of the disk that holds `absPath` (which need not exist yet), if it can be told. */
  diskSize?(absPath: string): Promise<number | undefined>;
  /** A file's text (the judge's rubric), or undefined when it cannot be read. */
  readText?(absPath: string): Promise<string | undefined>;
}
