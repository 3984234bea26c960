import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FailedRun } from "../../../src/dream/journal/failed-run.js";

export function failedRun(hash: string, cluster = "regex-parse", errorSummary = `error of ${hash}`): FailedRun {
  return {
    challenge: {
      hash,
      prompt: `Challenge ${hash}: parse the log`,
      setup: "require('node:fs').writeFileSync('log.txt', 'a 1\\n');",
      validator: "process.exit(0);",
      source: "template:regex-parse",
    },
    cluster,
    errorSummary,
    attempts: 3,
    failedAt: "1970-01-01T00:00:00.000Z",
  };
}

export function temporaryPath(name: string): string {
  return join(mkdtempSync(join(tmpdir(), "dream-journal-")), name);
}
