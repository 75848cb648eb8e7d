import { describe, expect, test } from "vitest";
import { load } from "../fixtures/configs/fake-probe.js";
import { filterAgentEnv, isSecretName } from "../../src/domain/lifecycle/secrets.js";

const PARENT = {
  PATH: "/usr/bin",
  HOME: "/home/me",
  ANTHROPIC_API_KEY: "sk-ant",
  OPENAI_API_KEY: "sk-oai",
  GITHUB_TOKEN: "ghp",
  HF_TOKEN: "hf",
  AWS_SECRET_ACCESS_KEY: "aws",
  DB_PASSWORD: "pw",
  MYSECRET: "s",
  TOKENIZERS_PARALLELISM: "false",
  PYTHONUNBUFFERED: "1",
  UNSET: undefined,
};

describe("secrets in org up's environment reach only runtimes that declare them", () => {
  test.each([
    ["ANTHROPIC_API_KEY", true],
    ["OPENAI_API_KEY", true],
    ["MY_APIKEY", true],
    ["GITHUB_TOKEN", true],
    ["ANTHROPIC_AUTH_TOKEN", true],
    ["AWS_SECRET_ACCESS_KEY", true],
    ["AWS_ACCESS_KEY_ID", true],
    ["DB_PASSWORD", true],
    ["PGPASSWORD", true],
    ["client_secret", true],
    ["GOOGLE_APPLICATION_CREDENTIALS", true],
    ["SSH_PRIVATE_KEY", true],
    ["MYSECRET", true],
    ["PATH", false],
    ["HOME", false],
    ["TOKENIZERS_PARALLELISM", false],
    ["CUDA_VISIBLE_DEVICES", false],
    ["KEYBOARD", false],
    ["SSH_AUTH_SOCK", false],
  ])("%s looks like a secret: %s", (name, secret) => {
    expect(isSecretName(name)).toBe(secret);
  });

  test("a runtime that declares nothing gets every variable but the secrets", () => {
    expect(filterAgentEnv(PARENT, [])).toEqual({
      PATH: "/usr/bin",
      HOME: "/home/me",
      TOKENIZERS_PARALLELISM: "false",
      PYTHONUNBUFFERED: "1",
    });
  });

  test("a runtime gets exactly the secrets it declares, and a declared name that is not set stays unset", () => {
    expect(filterAgentEnv(PARENT, ["ANTHROPIC_API_KEY", "NOT_SET_TOKEN"])).toEqual({
      PATH: "/usr/bin",
      HOME: "/home/me",
      TOKENIZERS_PARALLELISM: "false",
      PYTHONUNBUFFERED: "1",
      ANTHROPIC_API_KEY: "sk-ant",
    });
  });

  test("the parent environment is not changed", () => {
    const parent = { ...PARENT };
    filterAgentEnv(parent, ["GITHUB_TOKEN"]);
    expect(parent).toEqual(PARENT);
  });

  test("pass_env in org.yaml: a list of variable names, reported clearly otherwise", async () => {
    const yaml = (passEnv: string) =>
      `runtimes:\n  claude: { command: [claude], pass_env: ${passEnv} }\nroles:\n  researcher: { prompt: ` +
        `prompts/researcher.md, runtime: claude }\n`;
    const ok = await load(yaml("[ANTHROPIC_API_KEY]"));
    expect(ok.ok && ok.loaded.config.runtimes.claude!.pass_env).toEqual(["ANTHROPIC_API_KEY"]);
    const bad = await load(yaml('["$(cat ~/.ssh/id_rsa)"]'));
    expect(bad.ok ? [] : bad.problems).toEqual([
      'org.yaml:2:43: runtimes.claude.pass_env[0] must be an environment variable name, got "$(cat ~/.ssh/id_rsa)" — ' +
        'write e.g. ANTHROPIC_API_KEY',
    ]);
  });
});
