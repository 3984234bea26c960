import type { CliIo } from "./cli-io.js";

/** A progress bar on a terminal; nothing when output is piped, so logs stay clean. */
export interface ProgressBar {
  update: (done: number, total: number) => void;
  /** Clears the bar's line. */
  stop: () => void;
}

const WIDTH = 30;

export function createProgressBar(io: CliIo, label: string): ProgressBar {
  if (!io.isTerminal) return { update: () => undefined, stop: () => undefined };
  const started = performance.now();
  let drawnFilled = -1;
  let drawn = false;
  return {
    update: (done, total) => {
      const filled = total === 0 ? WIDTH : Math.round((done / total) * WIDTH);
      // Redraw only when the bar moves or finishes: thousands of episodes must not flood the terminal.
      if (filled === drawnFilled && done !== total) return;
      drawnFilled = filled;
      drawn = true;
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      io.stderr(`\r${label} [${"#".repeat(filled)}${"-".repeat(WIDTH - filled)}] ${done}/${total} episodes ${seconds}s`);
    },
    stop: () => {
      if (drawn) io.stderr("\r\u001b[2K");
      drawn = false;
    },
  };
}
