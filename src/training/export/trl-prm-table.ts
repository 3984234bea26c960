import { InvalidInputError } from "../../core/errors/index.js";
import type { PrmExample } from "../../frontier/prm/prm-state.js";
import type { ExportTable } from "./export-table.js";
import { BOOLEAN, STRING } from "./parquet-column-type.js";

export interface TrlPrmTableOptions {
  /** The labelled-state file (`selfplay prm label --out FILE`), for error messages. */
  labelsSource: string;
  /** The run's rollouts.jsonl, for error messages. */
  runSource: string;
  /** Every task the run's Steps were prompted with (`taskText` of each prompt): a label of another task is refused. */
  runTasks: ReadonlySet<string>;
}

interface LabelledPrefix {
  text: string;
  label: number;
}

/**
 * TRL's stepwise-supervision dataset for `PRMTrainer` (standard format), from
 * the labelled states `selfplay prm label` writes: its lines come trajectory
 * by trajectory, each starting at the empty prefix and growing one chunk (or
 * one Step) a line. Each trajectory is a row: `prompt` its task,
 * `completions` the text each prefix adds to the one before, `labels`
 * whether that prefix's label is above 0 (Math-Shepherd's hard estimate: some
 * continuation from it succeeded; with `--rollouts 0`, the trajectory's
 * outcome). The empty prefix's own label (before any step) is not a step's. A
 * prefix that the next does not extend (a multi-byte character cut in two)
 * is merged into the next step.
 */
export function trlPrmTable(examples: readonly PrmExample[], options: TrlPrmTableOptions): ExportTable {
  const trajectories: { task: string; line: number; prefixes: LabelledPrefix[] }[] = [];
  let current: (typeof trajectories)[number] | undefined;
  let previous: PrmExample | undefined;
  examples.forEach((example, index) => {
    if (!current || example.prefix === "" || example.task !== previous?.task || example.cluster !== previous.cluster) {
      current = { task: example.task, line: index + 1, prefixes: [] };
      trajectories.push(current);
    }
    if (example.prefix !== "") current.prefixes.push({ text: example.prefix, label: example.label });
    previous = example;
  });
  for (const { task, line } of trajectories) {
    if (!options.runTasks.has(task)) {
      throw new InvalidInputError(
        `${options.labelsSource}:${line}`,
        `labelled states of this run's own rollouts (selfplay prm label --trajectories ${options.runSource}); the task ${JSON.stringify(task)} is not one the run's Steps were prompted with`,
      );
    }
  }
  const rows: { prompt: string; completions: string[]; labels: boolean[] }[] = [];
  let emptyTrajectories = 0;
  let mergedPrefixes = 0;
  for (const { task, prefixes } of trajectories) {
    const chain = extendingChain(prefixes);
    mergedPrefixes += prefixes.length - chain.length;
    if (chain.length === 0) {
      emptyTrajectories++;
      continue;
    }
    rows.push({
      prompt: task,
      completions: chain.map((prefix, index) => prefix.text.slice(index === 0 ? 0 : (chain[index - 1] as LabelledPrefix).text.length)),
      labels: chain.map((prefix) => prefix.label > 0),
    });
  }
  if (rows.length === 0) {
    throw new InvalidInputError(`${options.labelsSource} (--format trl-prm)`, `labelled states with at least one non-empty prefix; its ${trajectories.length} trajectory(ies) have none`);
  }
  return {
    columns: [
      { name: "prompt", type: STRING },
      { name: "completions", type: { kind: "list", element: STRING } },
      { name: "labels", type: { kind: "list", element: BOOLEAN } },
    ],
    rows,
    skipped: { emptyTrajectories, mergedPrefixes },
  };
}

/** The prefixes, last first kept, each kept one a strict prefix of the next kept one. */
function extendingChain(prefixes: readonly LabelledPrefix[]): LabelledPrefix[] {
  const chain: LabelledPrefix[] = [];
  for (let index = prefixes.length - 1; index >= 0; index--) {
    const prefix = prefixes[index] as LabelledPrefix;
    const next = chain[0];
    if (next === undefined || (next.text.startsWith(prefix.text) && next.text !== prefix.text)) chain.unshift(prefix);
  }
  return chain;
}
