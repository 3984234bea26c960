import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Options of `ChallengeWorkspace`. */
export interface ChallengeWorkspaceOptions {
  /** Folder the fresh directories are made in. Default: the OS's temporary folder. */
  temporaryRoot?: string;
}

/** Fresh, empty directories for one attempt's programs, all removed by `dispose()`. */
export class ChallengeWorkspace {
  private readonly directories: string[] = [];
  private readonly root: string;

  constructor(options: ChallengeWorkspaceOptions = {}) {
    this.root = options.temporaryRoot ?? tmpdir();
  }

  /** A new empty directory; `label` only makes it recognisable in a listing. */
  async fresh(label: string): Promise<string> {
    const directory = await mkdtemp(join(this.root, `selfplay-dream-${label}-`));
    this.directories.push(directory);
    return directory;
  }

  async dispose(): Promise<void> {
    await Promise.all(this.directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
  }
}
