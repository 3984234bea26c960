/**
 * Entropy in nats of the empirical distribution of `choices`: 0 when every
 * choice is the same, ln k when k values are equally common, 0 for none.
 * Logged every self-play step over the clusters of the proposer's valid
 * problems: a proposer collapsing onto the few clusters it can do shows as a
 * falling entropy long before the pass rates say so.
 */
export function choiceEntropy(choices: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const choice of choices) counts.set(choice, (counts.get(choice) ?? 0) + 1);
  let entropy = 0;
  for (const count of counts.values()) {
    const share = count / choices.length;
    entropy -= share * Math.log(share);
  }
  // −0 when there is one value: report a plain 0.
  return entropy === 0 ? 0 : entropy;
}
