/** The arrays end to end in one Float64Array. */
export function concatenateArrays(arrays: readonly Float64Array[]): Float64Array {
  const result = new Float64Array(arrays.reduce((sum, array) => sum + array.length, 0));
  let offset = 0;
  for (const array of arrays) {
    result.set(array, offset);
    offset += array.length;
  }
  return result;
}
