/**
 * Runs a task per item with at most `limit` running at once. The first task that throws stops
 * the pool from starting more; the pool waits for those running, then throws that error.
 */

/**
 * @param items - the work, started in order.
 * @param limit - tasks at once, 1 or more.
 * @param task - the work for one item.
 * @throws the first error a task threw.
 */
export async function forEachLimit<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const item = items[next++]!;
      try {
        await task(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure) throw failure.error;
}
