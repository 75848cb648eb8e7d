/** git's argv, each `config` entry a `-c` ahead of the command: every caller keeps exactly the settings it needs. */
export function gitArgv(args: string[], config: string[] = []): string[] {
  return ["git", ...config.flatMap((entry) => ["-c", entry]), ...args];
}
