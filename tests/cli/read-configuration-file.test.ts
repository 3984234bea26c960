import { mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/program.js";

/** A configuration file is checked before anything is opened or written: no model is needed, and the folder must stay as it was. */
describe("selfplay train --config FILE", () => {
  let folder: string;

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-config-"));
  });

  async function train(configuration: string) {
    const path = join(folder, "bad.json");
    await writeFile(path, configuration);
    let stdout = "";
    let stderr = "";
    const code = await main(["train", "--model", join(folder, "absent.gguf"), "--config", path, "--out", join(folder, "run")], {
      io: { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), isTerminal: false },
      environment: { SELFPLAY_CONFIG_DIR: join(folder, "config") },
    });
    return { code, stdout, stderr, path, files: await readdir(folder) };
  }

  it("refuses a misspelt top-level key with exit 2, naming the file, the key and the nearest valid one, and creates nothing", async () => {
    const { code, stdout, stderr, path, files } = await train(JSON.stringify({ stepz: 10 }));
    expect(code).toBe(2);
    expect(stderr).toBe(`error: ${path}: stepz: unknown key; did you mean "steps"?\n`);
    expect(stdout).toBe("");
    expect(files).toEqual(["bad.json"]);
  });

  it("names the whole path of a misspelt key at any depth", async () => {
    const cases: [object, string][] = [
      [{ trainer: { optimizer: { learningRat: 1e-4 } } }, 'trainer.optimizer.learningRat: unknown key; did you mean "learningRate"?'],
      [{ trainer: { loss: { entropyCoeficient: 0.1 } } }, 'trainer.loss.entropyCoeficient: unknown key; did you mean "entropyCoefficient"?'],
      [{ trainer: { critic: { lamda: 0.9 } } }, 'trainer.critic.lamda: unknown key; did you mean "lambda"?'],
      [{ frontier: { mode: "uniform", setings: {} } }, 'frontier.setings: unknown key; did you mean "settings"?'],
      [{ frontier: { mode: "uniform", settings: { saturationWindw: 3 } } }, 'frontier.settings.saturationWindw: unknown key; did you mean "saturationWindow"?'],
    ];
    for (const [configuration, message] of cases) {
      const { code, stderr, path, files } = await train(JSON.stringify(configuration));
      expect(code).toBe(2);
      expect(stderr).toBe(`error: ${path}: ${message}\n`);
      expect(files).toEqual(["bad.json"]);
    }
  });

  it("refuses a file that is not JSON, not an object, or absent, with exit 2 naming the file", async () => {
    for (const [text, problem] of [["{ steps: 10 }", "a file of JSON"], ["[1]", "a file holding one JSON object"]] as const) {
      const { code, stderr, path } = await train(text);
      expect(code).toBe(2);
      expect(stderr).toContain(`--config: got ${JSON.stringify(path)}; expected ${problem}`);
    }
    let stderr = "";
    const code = await main(["train", "--config", join(folder, "absent.json")], { io: { stdout: () => undefined, stderr: (text) => void (stderr += text), isTerminal: false } });
    expect(code).toBe(2);
    expect(stderr).toContain("expected a readable JSON file (ENOENT)");
  });
});
