/**
 * The one bounded-concurrency helper: `limit` lanes, each taking the next item as it finishes one,
 * so a slow item holds one lane and not a whole round.
 */

/**
 * `work` over `items`, at most `limit` at once, started in the items' order; the results come back
 * in the items' order. After a failure no item is started; once the started ones settle, the first
 * failure is thrown.
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (!failure && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index]!, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  if (failure) throw failure.error;
  return results;
}
