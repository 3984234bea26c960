/**
 * Indices 0..n−1 reordered so that items with the same prompt are adjacent:
 * groups in order of their first item, items in their own order within a
 * group. `packGgmlChunks` packs a prompt once for consecutive sequences that
 * share it, so this order lets a group of completions of one prompt (an RL
 * group) share it.
 */
export function groupByPrompt(prompts: ReadonlyArray<ArrayLike<number>>): number[] {
  const groups = new Map<string, number[]>();
  prompts.forEach((prompt, index) => {
    const key = Array.prototype.join.call(prompt, ",");
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [index]);
    else group.push(index);
  });
  return [...groups.values()].flat();
}
