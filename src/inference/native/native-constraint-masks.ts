import { GrammarRejectedTokenError } from "../errors/grammar-rejected-token-error.js";
import { InvalidInputError, NativeAddonUnavailableError, NativeEngineDisposedError, NativeEngineError } from "../../core/errors.js";
import type { GrammarConstraint } from "../../core/schemas/grammar-constraint.js";
import type { ConstraintMasks } from "../grammar/constraint-masks.js";
import type { AddonErrorCode } from "./AddonTypes.js";
import { loadNativeAddon } from "./load-native-addon.js";
import { leaseNativeModel, type NativeModelLease } from "./native-model-lease.js";

/**
 * Rebuilds the allowed-token masks of constrained Steps with llama.cpp's own
 * grammar sampler, on a model loaded by the native addon (shared with engines
 * over the same file). Any model with the sampling model's vocabulary will do:
 * the mask depends on token texts only.
 */
export class NativeConstraintMasks {
  private disposed = false;

  private constructor(private readonly lease: NativeModelLease) {}

  /** Throws NativeAddonUnavailableError when the addon is not built or does not fit node-llama-cpp's llama.cpp. */
  static async create(modelPath: string, options: { gpu?: boolean } = {}): Promise<NativeConstraintMasks> {
    const gpu = options.gpu ?? false;
    const { binding, reason } = await loadNativeAddon(gpu);
    if (binding === undefined) throw new NativeAddonUnavailableError(reason);
    const lease = await leaseNativeModel(binding, modelPath, gpu).catch((error: unknown) => {
      throw toSelfplayError(error);
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
      throw toSelfplayError(error);
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

/** The addon's coded errors as selfplay's named ones; its argument errors read `<field>: expected <what>`. */
function toSelfplayError(error: unknown): Error {
  if (!(error instanceof Error)) return new NativeEngineError(String(error));
  switch ((error as Error & { code?: AddonErrorCode }).code) {
    case "SELFPLAY_GRAMMAR_REJECTED_TOKEN":
      return new GrammarRejectedTokenError(error.message, { cause: error });
    case "SELFPLAY_INVALID_ARGUMENT":
    case "SELFPLAY_INVALID_GRAMMAR": {
      const match = /^(\S+): expected (.*)$/s.exec(error.message);
      return match ? new InvalidInputError(match[1] as string, match[2] as string) : new InvalidInputError("constraint.gbnf", error.message);
    }
    case "SELFPLAY_DISPOSED":
      return new NativeEngineDisposedError(error.message, { cause: error });
    default:
      return new NativeEngineError(error.message, { cause: error });
  }
}
