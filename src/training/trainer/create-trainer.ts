import { GgmlTrainer } from "../ggml/ggml-trainer.js";
import type { Trainer } from "./trainer.js";
import type { TrainerBackend } from "./trainer-checkpoint.js";
import type { TrainerOptions } from "./trainer-options.js";

/** A trainer of the named backend (`--trainer`), created from the options every backend takes. */
export async function createTrainer(backend: TrainerBackend, options: TrainerOptions): Promise<Trainer> {
  switch (backend) {
    case "tfjs": {
      // Loaded here, not at import: importing selfplay should not load tfjs.
      const { TfjsTrainer } = await import("../tfjs/tfjs-trainer.js");
      return TfjsTrainer.create(options);
    }
    case "ggml":
      return GgmlTrainer.create(options);
  }
}
