import { existsSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/program.js";

async function runCli(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { io: { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), isTerminal: false } });
  return { code, stdout, stderr };
}

/** A module in the package folder's reach (it imports selfplay's build), written for one case. */
const GOOD_EPISODES = `
import { ExactMatchVerifier, RoleSchema, SingleTurnEpisode } from "${join(import.meta.dirname, "../../dist/src/index.js")}";
import { z } from "zod";
class Echo extends SingleTurnEpisode {
  type = "echo";
  roles = [RoleSchema.parse({ id: "student", sampler: { maxTokens: 2 } })];
  verifier = new ExactMatchVerifier({ roleId: "student" });
  roleId = "student";
  artifactSchema = z.object({ question: z.string(), expected: z.string() });
  prompt(artifact) { return [{ role: "user", content: artifact.question }]; }
  finalize(state, artifact) { return { expected: artifact.expected }; }
}
export const createEpisodes = () => [new Echo()];
`;

describe("selfplay train --env with a bad environment module: exit 2 naming the module and the problem, nothing created", () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-bad-env-"));
  });

  const cases: { name: string; source: string; message: RegExp }[] = [
    { name: "no-factory.js", source: "export const somethingElse = 1;", message: /no-factory\.js: export "createEnvironment" is undefined; export a function \(options\) => Environment .*exports: somethingElse/ },
    { name: "not-javascript.js", source: "export function createEnvironment( {", message: /not-javascript\.js: does not load/ },
    {
      name: "missing-package.js",
      source: 'import pad from "selfplay-no-such-package";\nexport function createEnvironment() { return pad; }',
      message: /missing-package\.js: does not load: it imports the package "selfplay-no-such-package", which Node cannot resolve from the module's folder; install it .*\(npm install selfplay-no-such-package\)/,
    },
    { name: "no-such-file.js", source: 'import { x } from "./not-here.js";\nexport function createEnvironment() { return x; }', message: /no-such-file\.js: does not load: a file it names does not exist/ },
    { name: "throws.js", source: 'export function createEnvironment() { throw new Error("no data here"); }', message: /throws\.js: createEnvironment threw: no data here/ },
    { name: "no-plan.js", source: 'export function createEnvironment() { return { name: "x", episodes: { module: "./x.js" }, stores: {} }; }', message: /no-plan\.js: the environment it returned has a bad "plan"/ },
    {
      name: "bad-store.js",
      source: 'export function createEnvironment() { return { name: "x", episodes: { module: "./x.js" }, stores: { echo: [1, 2] }, plan: [{ episodeType: "echo", count: 1 }] }; }',
      message: /bad-store\.js: the environment it returned has a bad "stores\.echo": an ArtifactStore/,
    },
    {
      name: "wrong-type.js",
      source: `${GOOD_EPISODES}\nimport { ArtifactStore } from "${join(import.meta.dirname, "../../dist/src/index.js")}";\nexport function createEnvironment() { return { name: "x", episodes: { module: import.meta.url, exportName: "createEpisodes" }, stores: {}, plan: [{ episodeType: "echoes", count: 1 }] }; }`,
      message: /wrong-type\.js: its plan or stores name the episode type "echoes", which its episodes do not have \(they have: echo\)/,
    },
    {
      name: "episodes-throw.js",
      source: `export const createEpisodes = () => { throw new Error("episode setup failed"); };\nexport function createEnvironment() { return { name: "x", episodes: { module: import.meta.url, exportName: "createEpisodes" }, stores: {}, plan: [{ episodeType: "echo", count: 1 }] }; }`,
      message: /episodes-throw\.js: its episodes .* cannot be used: .*episode setup failed/,
    },
  ];

  for (const { name, source, message } of cases) {
    it(name, async () => {
      const module = join(folder, name);
      await writeFile(module, source);
      const out = join(folder, `run-${name}`);
      const { code, stderr } = await runCli(["train", "--env", module, "--out", out, "--steps", "1"]);
      expect(code, stderr).toBe(2);
      expect(stderr).toMatch(message);
      expect(existsSync(out)).toBe(false);
    });
  }

  it("an unknown built-in name lists the built-in environments", async () => {
    const { code, stderr } = await runCli(["train", "--env", "arithmatic", "--out", join(folder, "run-unknown")]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/environment arithmatic: no such built-in environment; give one of arithmetic, .*exact-match.* or a JavaScript module path/);
  });

  it("--frontier prm on an environment without clusters exits 2 before saying it starts", async () => {
    const out = join(folder, "run-frontier");
    const { code, stderr } = await runCli(["train", "--env", "debate", "--frontier", "prm", "--prm", folder, "--out", out]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--frontier: got "prm"; expected "uniform": the debate environment declares no clusters/);
    expect(stderr).not.toMatch(/^training /m);
    expect(existsSync(out)).toBe(false);
  });

  it("a misspelt key of the configuration file names the nearest valid key", async () => {
    const config = join(folder, "typo.json");
    await writeFile(config, JSON.stringify({ stepz: 10 }));
    const { code, stderr } = await runCli(["train", "--env", "exact-match", "--config", config, "--out", join(folder, "run-typo")]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/stepz/);
    expect(stderr).toMatch(/"steps"/);
    expect(existsSync(join(folder, "run-typo"))).toBe(false);
    await writeFile(config, JSON.stringify({ environment: { promts: 4 } }));
    const nested = await runCli(["train", "--env", "exact-match", "--config", config, "--out", join(folder, "run-typo")]);
    expect(nested.code).toBe(2);
    expect(nested.stderr).toMatch(/typo\.json: environment\.promts: unknown key; did you mean "prompts"\?/);
  });
});
