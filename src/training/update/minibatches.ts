/** Indices 0..count−1 shuffled (Fisher–Yates with `random`) and cut into chunks of `size`. */
export function minibatches(count: number, size: number, random: () => number): number[][] {
  const order = Array.from({ length: count }, (_, index) => index);
  for (let index = count - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [order[index], order[other]] = [order[other] as number, order[index] as number];
  }
  const chunks: number[][] = [];
  for (let start = 0; start < count; start += size) chunks.push(order.slice(start, start + size));
  return chunks;
}
