import { silentLogger } from '@browserdeck/domain';
import { describe, expect, it, vi } from 'vitest';
import { InMemoryBlobStore } from '../../shared-state/InMemoryBlobStore.ts';
import { NetworkCapture, readNetworkCapture } from './NetworkCapture.ts';

const event = (tab: number, url: string) => ({
  tab,
  method: 'Network.requestWillBeSent',
  params: { requestId: url, request: { url, method: 'GET', headers: {} } },
});

describe('NetworkCapture', () => {
  it('writes events to the blob store as chunks and a manifest, read back in order from another reader', async () => {
    const blobs = new InMemoryBlobStore();
    const capture = new NetworkCapture({
      blobs,
      providerSessionId: 's1',
      maxBytes: 1 << 20,
      logger: silentLogger,
    });
    // Over 64 KiB: the first chunk is written while the session runs, before any end.
    const big = 'x'.repeat(1000);
    for (let i = 0; i < 80; i++) capture.push(event(i % 2, `https://example.test/${i}/${big}`));
    await vi.waitFor(async () =>
      expect((await readNetworkCapture(blobs, 's1'))?.events.length).toBeGreaterThan(0),
    );
    const during = await readNetworkCapture(blobs, 's1');
    expect(during?.ended).toBe(false);
    await capture.end();
    const after = await readNetworkCapture(blobs, 's1');
    expect(after?.ended).toBe(true);
    expect(after?.capped).toBe(false);
    expect(after?.events.map((e) => (e.params.request as { url: string }).url.split('/')[3])).toEqual(
      Array.from({ length: 80 }, (_, i) => String(i)),
    );
    expect(after?.events.map((e) => e.tab).slice(0, 4)).toEqual([0, 1, 0, 1]);
    expect(blobs.keys().filter((key) => key.startsWith('network/s1/')).length).toBeGreaterThan(2);
  });

  it('stops at its bound, says so once, and keeps what came before', async () => {
    const blobs = new InMemoryBlobStore();
    const onCapped = vi.fn();
    const capture = new NetworkCapture({
      blobs,
      providerSessionId: 's2',
      maxBytes: 600,
      logger: silentLogger,
      onCapped,
    });
    for (let i = 0; i < 20; i++) capture.push(event(0, `https://example.test/${i}`));
    await capture.end();
    const stored = await readNetworkCapture(blobs, 's2');
    expect(stored?.capped).toBe(true);
    expect(onCapped).toHaveBeenCalledTimes(1);
    expect(stored?.bytes).toBeLessThanOrEqual(600);
    expect(stored?.events.length).toBeGreaterThan(0);
    expect(stored?.events.length).toBeLessThan(20);
  });

  it('loses only the chunk a failing write held, and reads null for a session it never captured', async () => {
    const blobs = new InMemoryBlobStore();
    expect(await readNetworkCapture(blobs, 'unknown')).toBeNull();
    const capture = new NetworkCapture({
      blobs,
      providerSessionId: 's3',
      maxBytes: 1 << 20,
      logger: silentLogger,
    });
    // The capture is there (empty) from its start.
    await vi.waitFor(async () => expect((await readNetworkCapture(blobs, 's3'))?.events).toEqual([]));
    const put = vi.spyOn(blobs, 'put').mockRejectedValueOnce(new Error('database gone'));
    capture.push(event(0, 'https://example.test/lost'));
    await vi.waitFor(() => expect(put).toHaveBeenCalled(), { timeout: 3000 });
    capture.push(event(0, 'https://example.test/kept'));
    await capture.end();
    const stored = await readNetworkCapture(blobs, 's3');
    expect(stored?.events.map((e) => (e.params.request as { url: string }).url)).toEqual([
      'https://example.test/kept',
    ]);
  });
});
