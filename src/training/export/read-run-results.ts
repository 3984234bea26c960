import { stat } from "node:fs/promises";
import { join } from "node:path";
import { RUN_FILES } from "../../arena/run-directory.js";
import { CorruptJsonlError, InvalidInputError } from "../../core/errors/index.js";
import { readJsonl } from "../../core/jsonl/read-jsonl.js";
import { GenerateResultSchema, type GenerateResult } from "../../core/schemas/generate-result.js";

/** What a run folder's rollouts.jsonl holds. */
export interface RunResults {
  /** The file read, `RUN/rollouts.jsonl`. */
  path: string;
  /** One result tree a line, in file order, as GenerateResultSchema parses it. */
  results: GenerateResult[];
  /** True when the last line was torn by an interrupted writer (it is left out). */
  tornLastLine: boolean;
}

/**
 * The rollouts of the run in `directory` (`selfplay train` or `selfplay
 * run`): its rollouts.jsonl, one GenerateResult tree a line. A missing folder
 * or file is an error naming `--run`; a bad line one naming the file and line.
 */
export async function readRunResults(directory: string): Promise<RunResults> {
  const folder = await stat(directory).catch(() => undefined);
  if (!folder?.isDirectory()) {
    throw new InvalidInputError("--run", "a run folder of selfplay train or selfplay run (the folder that holds rollouts.jsonl)", directory);
  }
  const path = join(directory, RUN_FILES.rollouts);
  const file = await stat(path).catch(() => undefined);
  if (!file?.isFile()) {
    throw new InvalidInputError("--run", `a run folder with a ${RUN_FILES.rollouts} (selfplay train and selfplay run write one); ${path} does not exist`, directory);
  }
  const contents = await readJsonl(path, GenerateResultSchema).catch((error: unknown) => {
    if (!(error instanceof CorruptJsonlError)) throw error;
    throw new CorruptJsonlError(error.path, error.lineNumber, `${error.reason}; expected one GenerateResult a line, as selfplay train and selfplay run write them`);
  });
  return { path, results: contents.records, tornLastLine: contents.tornLastLine !== null };
}
