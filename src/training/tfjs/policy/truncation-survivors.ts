/** A Step's truncation samplers, as SamplerSettings records them (0, 1, 0 turn each one off). */
export interface TruncationSettings {
  topK: number;
  topP: number;
  minP: number;
}

/**
 * The tokens llama.cpp's truncation samplers keep, in the order the engine
 * runs them (top-k, top-p, min-p; all at temperature 1, after the logit bias
 * and the grammar mask, before the temperature), with `min_keep` 1:
 * - top-k keeps the k highest logits;
 * - top-p keeps the most likely tokens until their probabilities (float32,
 *   renormalised over what top-k left) add up to at least p, the one that
 *   crosses p included;
 * - min-p keeps the tokens whose logit is at least the top one + log(p).
 * `logits` holds logit + bias per token, −∞ where the grammar masked it. Among
 * exactly equal logits at a cut, llama.cpp's sort decides which survive; any
 * choice gives the same distribution values, and `target` (the sampled token,
 * which the engine kept) is taken first. Each cut keeps a prefix of the
 * tokens by logit, and the engine's prefix reached `target`: where these
 * logits (a trainer's, ~1e-6 from the engine's) put it past a cut by a
 * near-tie, the cut is moved to include it rather than score the sampled
 * token as impossible. Returns 1 per kept token.
 */
export function truncationSurvivors(logits: Float32Array, settings: TruncationSettings, target: number): Uint8Array {
  const kept = new Uint8Array(logits.length);
  const order: number[] = [];
  for (let token = 0; token < logits.length; token++) if (logits[token] !== Number.NEGATIVE_INFINITY) order.push(token);
  order.sort((a, b) => (logits[b] as number) - (logits[a] as number) || (a === target ? -1 : b === target ? 1 : a - b));
  let count = order.length;
  if (settings.topK > 0) count = Math.min(count, settings.topK);
  if (settings.topP < 1 && count > 0) count = topPCount(logits, order.slice(0, count), Math.fround(settings.topP));
  if (settings.minP > 0 && count > 0) {
    const minimum = Math.fround((logits[order[0] as number] as number) + Math.fround(Math.log(Math.fround(settings.minP))));
    while (count > 1 && (logits[order[count - 1] as number] as number) < minimum) count--;
  }
  count = Math.max(count, order.indexOf(target) + 1);
  for (const token of order.slice(0, count)) kept[token] = 1;
  return kept;
}

/** How many of `order` (logits descending) top-p keeps: llama.cpp's float32 softmax and running sum. */
function topPCount(logits: Float32Array, order: readonly number[], p: number): number {
  const maximum = logits[order[0] as number] as number;
  const probabilities = order.map((token) => Math.fround(Math.exp(Math.fround((logits[token] as number) - maximum))));
  let sum = 0;
  for (const probability of probabilities) sum = Math.fround(sum + probability);
  let cumulative = 0;
  for (let index = 0; index < order.length; index++) {
    cumulative = Math.fround(cumulative + Math.fround((probabilities[index] as number) / sum));
    if (cumulative >= p) return index + 1;
  }
  return order.length;
}
