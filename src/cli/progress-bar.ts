import cliProgress from "cli-progress";
import type { CliIo } from "./cli-io.js";

/** A progress bar on a terminal; nothing when output is piped, so logs stay clean. */
export interface ProgressBar {
  update: (done: number, total: number) => void;
  stop: () => void;
}

export function createProgressBar(io: CliIo, label: string): ProgressBar {
  if (!io.isTerminal) return { update: () => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {value}/{total} episodes | {duration_formatted}`, hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update: (done, total) => {
      if (!started) {
        bar.start(total, 0);
        started = true;
      }
      bar.update(done);
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}
