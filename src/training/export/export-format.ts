import { z } from "zod";

/**
 * What `selfplay export` writes a run as: selfplay's own rollouts
 * (`trajectories`, JSONL) or a trainer's dataset layout (Parquet): TRL's
 * SFT, DPO, KTO and PRM datasets, verl's RL prompts. docs/export.md has each
 * layout's field mapping.
 */
export const ExportFormatSchema = z.enum(["trajectories", "trl-sft", "trl-dpo", "trl-kto", "trl-prm", "verl"], {
  error: "one of: trajectories, trl-sft, trl-dpo, trl-kto, trl-prm, verl",
});
export type ExportFormat = z.infer<typeof ExportFormatSchema>;

/** The one file an export writes into its output folder: `train.jsonl` for `trajectories`, else `train.parquet`. */
export function exportFileName(format: ExportFormat): string {
  return format === "trajectories" ? "train.jsonl" : "train.parquet";
}
