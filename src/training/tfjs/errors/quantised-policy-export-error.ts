import { SelfplayError } from "../../../core/errors/index.js";

/**
 * A policy over a quantised (or f16) base without a LoRA adapter was asked to
 * sync its weights: a full-weight export writes every matrix as f32, several
 * times the base's size, each policy version.
 */
export class QuantisedPolicyExportError extends SelfplayError {
  override readonly name = "QuantisedPolicyExportError";
  constructor(
    readonly modelPath: string,
    /** The non-f32 tensor types of the base, e.g. `q8_0`. */
    readonly tensorTypes: readonly string[],
  ) {
    super(
      `${modelPath} stores ${tensorTypes.join(", ")} weights and the policy has no LoRA adapter: exporting full weights would write them as f32 ` +
        "every policy version. Train an adapter instead (createTrainableAdapter, then Policy.load({ modelPath, loraPath })), " +
        'or pass format: "full" to syncPolicy to accept the f32 copies',
    );
  }
}
