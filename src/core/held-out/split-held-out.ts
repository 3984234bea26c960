/** Items split into those trained on and those held out, each in the items' order; none is both. */
export interface HeldOutSplit<Item> {
  training: Item[];
  heldOut: Item[];
}

/**
 * Splits `items` by `isItemHeldOut` — usually `(item) => isHeldOut(keyOf(item),
 * rule)`, or a caller's own test (a dataset's `{column, value}`).
 */
export function splitHeldOut<Item>(items: readonly Item[], isItemHeldOut: (item: Item) => boolean): HeldOutSplit<Item> {
  const split: HeldOutSplit<Item> = { training: [], heldOut: [] };
  for (const item of items) (isItemHeldOut(item) ? split.heldOut : split.training).push(item);
  return split;
}
