/** A Browserbase request outlived its deadline (→ `provider_timeout`). */
export class DeadlineExceededError extends Error {
  constructor(ms: number) {
    super(`No answer within ${ms} ms.`);
    this.name = 'DeadlineExceededError';
  }
}

/**
 * Runs one Browserbase request with a hard deadline covering the whole exchange, body included (the
 * SDK's own timeout stops at the response headers, so a stalled body would hang). Past `ms` the
 * request is aborted and the call fails with `DeadlineExceededError`.
 */
export async function withDeadline<T>(ms: number, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new DeadlineExceededError(ms));
    }, ms);
  });
  try {
    return await Promise.race([run(controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
