/**
 * Promise.all that waits for every promise before it rejects. Promise.all rejects at the first
 * failure while the others still run: a caller that started jailed jobs would return (and its
 * caller clean up their folders) with a job still alive. This resolves with every value in input
 * order, or, once all have settled, rejects with the first rejection in input order.
 */
export async function settleAll<T extends readonly unknown[]>(
  promises: readonly [...{ [K in keyof T]: Promise<T[K]> }],
): Promise<T> {
  const results = await Promise.allSettled(promises);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
