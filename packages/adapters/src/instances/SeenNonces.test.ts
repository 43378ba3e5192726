import { describe, expect, it } from 'vitest';
import { SeenNonces } from './SeenNonces.ts';

describe('SeenNonces', () => {
  it('takes a nonce once while it has not expired, and forgets it after', () => {
    const nonces = new SeenNonces();
    expect(nonces.take('n1', 1_000, 0)).toBe(true);
    expect(nonces.take('n1', 1_000, 500)).toBe(false);
    expect(nonces.take('n2', 2_000, 1_500)).toBe(true);
    // n1 expired and was dropped when n2 came: the ledger stays as small as the window.
    expect(nonces.take('n1', 2_500, 1_600)).toBe(true);
  });

  it('refuses new nonces while full of unexpired ones, and takes them again once some expire', () => {
    const nonces = new SeenNonces({ max: 2 });
    expect(nonces.take('a', 100, 0)).toBe(true);
    expect(nonces.take('b', 200, 0)).toBe(true);
    expect(nonces.take('c', 300, 50)).toBe(false);
    expect(nonces.take('c', 300, 150)).toBe(true);
    expect(nonces.take('b', 300, 150)).toBe(false);
  });
});
