import { InvalidInputError } from "../../core/errors/index.js";
import { NativeEngineDisposedError } from "../errors/index.js";
import type { GrammarConstraint } from "../../core/schemas/grammar-constraint.js";
import type { ConstraintMasks } from "../grammar/constraint-masks.js";
import { openNativeDevice } from "./open-native-device.js";
import { leaseNativeModel, type NativeModelLease } from "./native-model-lease.js";
import { addonError } from "./addon-error.js";

/**
 * Rebuilds the allowed-token masks of constrained Steps with llama.cpp's own
 * grammar sampler, on a model loaded by the native addon (shared with engines
 * over the same file). Any model with the sampling model's vocabulary will do:
 * the mask depends on token texts only.
 */
export class NativeConstraintMasks {
  private disposed = false;

  private constructor(private readonly lease: NativeModelLease) {}

  /**
   * Throws NativeAddonUnavailableError when the addon is not built or does not fit node-llama-cpp's
   * llama.cpp. The model stays on the CPU: the masks read its vocabulary only.
   */
  static async create(modelPath: string): Promise<NativeConstraintMasks> {
    const { binding, device } = await openNativeDevice("cpu");
    const lease = await leaseNativeModel(binding, modelPath, device.name).catch((error: unknown) => {
      throw addonError(error, "constraint.gbnf");
    });
    return new NativeConstraintMasks(lease);
  }

  get vocabularySize(): number {
    return this.lease.model.vocabularySize;
  }

  /**
   * The masks `completionTokenIds` were sampled under: each token is replayed
   * through the grammar in turn (as the decoder accepted it). Throws
   * GrammarRejectedTokenError when a token is not allowed where it stands.
   */
  async replay(constraint: GrammarConstraint, completionTokenIds: ArrayLike<number>): Promise<ConstraintMasks> {
    if (this.disposed) throw new NativeEngineDisposedError("the native constraint masks were disposed");
    const biasEntries = Object.entries(constraint.logitBias ?? {});
    const tokens = Int32Array.from(completionTokenIds);
    const badToken = tokens.findIndex((token, index) => token !== completionTokenIds[index] || token < 0 || token >= this.vocabularySize);
    if (badToken >= 0) throw new InvalidInputError(`completionTokenIds[${badToken}]`, `a token id in [0, ${this.vocabularySize})`, completionTokenIds[badToken]);
    let masks;
    try {
      masks = await this.lease.model.replayGrammarMasks({
        grammar: constraint.gbnf,
        ...(constraint.root !== undefined && { grammarRoot: constraint.root }),
        completionTokens: tokens,
        ...(biasEntries.length > 0 && { logitBiasTexts: biasEntries.map(([text]) => text) }),
      });
    } catch (error) {
      throw addonError(error, "constraint.gbnf");
    }
    // As the decoder: texts that name the same token keep the last value (logitBiasTokenIds builds a Map).
    const bias = new Map<number, number>();
    biasEntries.forEach(([, value], index) => bias.set(masks.logitBiasTokens[index] as number, value));
    return {
      vocabularySize: masks.vocabularySize,
      wordsPerPosition: masks.wordsPerPosition,
      allowed: masks.allowed,
      logitBias: { tokenIds: Int32Array.from(bias.keys()), values: Float32Array.from(bias.values()) },
    };
  }

  /** Releases this holder's share of the model. Idempotent. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.lease.release();
  }
}
