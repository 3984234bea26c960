import { parseInput } from "../../core/parse-input.js";
import type { Featuriser } from "./featuriser.js";
import { HashedNgramSettingsSchema, type HashedNgramSettings } from "./featuriser-settings.js";
import { fnv1aBytes, fnv1aText } from "../../core/hashing/fnv1a.js";
import type { PrmState } from "./prm-state.js";

export type HashedNgramFeaturiserOptions = Partial<Omit<HashedNgramSettings, "kind">>;

/**
 * The featuriser that needs no model. Every byte n-gram (n = 1..maxNgram) of
 * the task and of the prefix, and the cluster name as one token, is hashed
 * with FNV-1a — each field from its own namespace, so "12" in the task and
 * "12" in the prefix are different features — into `dimensions` buckets of
 * counts. Each field's counts are L2-normalised before they are added, so a
 * long prefix does not drown out the task and cluster; the sum is
 * L2-normalised again. Deterministic: same state, same vector, on any machine.
 */
export class HashedNgramFeaturiser implements Featuriser {
  readonly settings: HashedNgramSettings;
  private readonly encoder = new TextEncoder();
  private static readonly NAMESPACES = {
    task: fnv1aText("task\u241f"),
    prefix: fnv1aText("prefix\u241f"),
    cluster: fnv1aText("cluster\u241f"),
  };

  constructor(options: HashedNgramFeaturiserOptions = {}) {
    this.settings = parseInput(HashedNgramSettingsSchema, { ...options, kind: "hashed-ngram" });
  }

  get dimensions(): number {
    return this.settings.dimensions;
  }

  async featurise(states: readonly PrmState[]): Promise<Float32Array[]> {
    return states.map((state) => this.featuriseOne(state));
  }

  /** The vector of one state (synchronous; `featurise` is this over a list). */
  featuriseOne(state: PrmState): Float32Array {
    const { dimensions, maxNgram } = this.settings;
    const { NAMESPACES } = HashedNgramFeaturiser;
    const sum = new Float64Array(dimensions);
    addNormalised(sum, this.ngramCounts(state.task, NAMESPACES.task, maxNgram));
    addNormalised(sum, this.ngramCounts(state.prefix, NAMESPACES.prefix, maxNgram));
    // The whole name is one token: clusters are categories, their spelling carries no meaning here.
    addNormalised(sum, this.tokenCounts(state.cluster, NAMESPACES.cluster));
    const vector = new Float32Array(dimensions);
    const norm = Math.sqrt(sumOfSquares(sum));
    if (norm > 0) for (let index = 0; index < dimensions; index++) vector[index] = (sum[index] as number) / norm;
    return vector;
  }

  private ngramCounts(text: string, namespace: number, maxNgram: number): Float64Array {
    const counts = new Float64Array(this.settings.dimensions);
    const bytes = this.encoder.encode(text);
    for (let start = 0; start < bytes.length; start++) {
      for (let length = 1; length <= maxNgram && start + length <= bytes.length; length++) {
        const bucket = fnv1aBytes(bytes, start, start + length, namespace) % counts.length;
        counts[bucket] = (counts[bucket] as number) + 1;
      }
    }
    return counts;
  }

  private tokenCounts(text: string, namespace: number): Float64Array {
    const counts = new Float64Array(this.settings.dimensions);
    const bytes = this.encoder.encode(text);
    if (bytes.length > 0) counts[fnv1aBytes(bytes, 0, bytes.length, namespace) % counts.length] = 1;
    return counts;
  }
}

function sumOfSquares(values: Float64Array): number {
  let total = 0;
  for (const value of values) total += value * value;
  return total;
}

/** `sum += counts / ‖counts‖₂` (nothing when counts is all zero). */
function addNormalised(sum: Float64Array, counts: Float64Array): void {
  const squares = sumOfSquares(counts);
  if (squares === 0) return;
  const scale = 1 / Math.sqrt(squares);
  for (let index = 0; index < counts.length; index++) sum[index] = (sum[index] as number) + (counts[index] as number) * scale;
}
