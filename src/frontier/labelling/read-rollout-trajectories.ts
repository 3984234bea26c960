import { CorruptJsonlError, InvalidInputError } from "../../core/errors/index.js";
import { readJsonl } from "../../core/jsonl/read-jsonl.js";
import { GenerateResultSchema } from "../../core/schemas/generate-result.js";
import { expandGlob } from "./expand-glob.js";
import type { LabelledEpisodes } from "./labelled-episodes.js";
import { prmTrajectories, type PrmTrajectory } from "./prm-trajectory.js";

export interface RolloutTrajectories {
  /** Trajectories of every file, file by file (sorted), line by line. */
  trajectories: PrmTrajectory[];
  /** The trajectories of each file, in `trajectories`' order, and the labelled episodes they were read with. */
  byFile: { file: string; episodes: LabelledEpisodes; trajectories: PrmTrajectory[] }[];
  /** Files whose last line was torn by an interrupted writer (that line is skipped). */
  tornFiles: string[];
}

/**
 * The trajectories in the rollouts.jsonl files `glob` names (one
 * GenerateResult tree a line, as `selfplay train` and `selfplay run` write
 * them), each file read with the labelled episodes `episodesOf` gives for it
 * (those of the environment that made it). No file, a bad line, or no
 * trajectory at all is an error naming the glob, file and line.
 */
export async function readRolloutTrajectories(glob: string, episodesOf: (file: string) => Promise<LabelledEpisodes>): Promise<RolloutTrajectories> {
  const files = await expandGlob(glob);
  if (files.length === 0) {
    throw new InvalidInputError("--trajectories", "a glob that names at least one rollouts.jsonl file (quote it so the shell leaves it alone, e.g. 'runs/*/rollouts.jsonl')", glob);
  }
  const byFile: RolloutTrajectories["byFile"] = [];
  const tornFiles: string[] = [];
  for (const file of files) {
    const episodes = await episodesOf(file);
    const contents = await readJsonl(file, GenerateResultSchema).catch((error: unknown) => {
      if (!(error instanceof CorruptJsonlError)) throw error;
      throw new CorruptJsonlError(error.path, error.lineNumber, `${error.reason}; expected one GenerateResult a line, as rollouts.jsonl of selfplay train or selfplay run holds: pass those files, or delete the line`);
    });
    if (contents.tornLastLine !== null) tornFiles.push(file);
    byFile.push({ file, episodes, trajectories: contents.records.flatMap((result, index) => prmTrajectories([result], episodes, `${file}:${index + 1}`)) });
  }
  const trajectories = byFile.flatMap((entry) => entry.trajectories);
  if (trajectories.length === 0) {
    const types = [...new Set(byFile.flatMap((entry) => Object.keys(entry.episodes.byType)))];
    throw new InvalidInputError(
      "--trajectories",
      `files with scored rollouts of ${types.join(", ") || "an episode type with a trainable role"} (the episode types their environment labels); ${files.length} file(s) matched and hold none`,
      glob,
    );
  }
  return { trajectories, byFile, tornFiles };
}
