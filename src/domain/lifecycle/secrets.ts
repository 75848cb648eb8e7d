// Which variables of `org up`'s environment an agent program may see: secrets only where a runtime asks for them.

const SECRET_WORDS = new Set(["TOKEN", "SECRET", "SECRETS", "PASSWORD", "PASSWD", "CREDENTIAL", "CREDENTIALS"]);
const SECRET_PAIRS = /(^|_)(API_?KEY|ACCESS_KEY|PRIVATE_KEY|SECRET_KEY|AUTH_KEY)(_|$)/;

/** ANTHROPIC_API_KEY, GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, DB_PASSWORD: yes; TOKENIZERS_PARALLELISM, PATH: no. */
export function isSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  return SECRET_PAIRS.test(upper)
    || upper.split("_")
      .some((word) =>
        SECRET_WORDS.has(word) || word.endsWith("SECRET") || word.endsWith("PASSWORD") || word.endsWith("TOKEN"));
}

/**
 * The environment an agent program starts with: the parent's, minus every secret-looking variable its
 * runtime does not declare in pass_env. With declared = [] it is the environment for everything else
 * (the tmux server, the daemon, verify runs).
 */
export function filterAgentEnv(
  parentEnv: Readonly<Record<string, string | undefined>>, declared: readonly string[] = [],
): Record<string, string> {
  const allowed = new Set(declared);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parentEnv)) {
    if (value === undefined) continue;
    if (isSecretName(name) && !allowed.has(name)) continue;
    env[name] = value;
  }
  return env;
}

/** The named variables of `env` that are set: the secrets a runtime declares, for its program only. */
export function pickEnv(env: Readonly<Record<string, string | undefined>>, names: readonly string[]): Record<
  string, string
> {
  return Object.fromEntries(names.flatMap((name) => (env[name] === undefined ? [] : [[name, env[name]!]])));
}
