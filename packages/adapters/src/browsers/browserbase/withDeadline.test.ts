import { describe, expect, it } from 'vitest';
import { DeadlineExceededError, withDeadline } from './withDeadline.ts';

describe('withDeadline', () => {
  it('answers what the call answers within the deadline', async () => {
    await expect(withDeadline(1_000, async () => 'ok')).resolves.toBe('ok');
  });

  it('fails with a timeout and aborts the request when the call outlives the deadline', async () => {
    let signal: AbortSignal | undefined;
    const call = withDeadline(20, (s) => {
      signal = s;
      return new Promise<never>(() => {});
    });
    await expect(call).rejects.toBeInstanceOf(DeadlineExceededError);
    expect(signal?.aborted).toBe(true);
  });

  it("passes the call's own failure on", async () => {
    await expect(withDeadline(1_000, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });
});
