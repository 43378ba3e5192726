import { describe, expect, it } from 'vitest';
import { CHROME_UNACKED_FRAMES, ScreencastAcks } from './ScreencastAcks.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function acksWith(minIntervalMs: number, canRefresh = () => true) {
  const sent: number[] = [];
  let refreshes = 0;
  const acks = new ScreencastAcks({
    minIntervalMs,
    send: (id) => sent.push(id),
    refresh: () => {
      if (!canRefresh()) return false;
      refreshes++;
      return true;
    },
  });
  return { acks, sent, refreshes: () => refreshes };
}

describe('ScreencastAcks', () => {
  it('sends acks at once without pacing, and asks for no refresh while the window never fills', async () => {
    const { acks, sent, refreshes } = acksWith(0);
    for (let i = 0; i < 5; i++) {
      acks.received(1);
      acks.release(1);
    }
    expect(sent).toEqual([1, 1, 1, 1, 1]);
    await pause(150);
    expect(refreshes()).toBe(0);
    acks.stop();
  });

  it('paces acks, and refreshes once when the window was full and no frame followed its reopening', async () => {
    const { acks, sent, refreshes } = acksWith(30);
    for (let i = 0; i < CHROME_UNACKED_FRAMES; i++) acks.received(7);
    for (let i = 0; i < CHROME_UNACKED_FRAMES; i++) acks.release(7);
    expect(sent).toEqual([7]);
    await pause(80);
    expect(sent).toEqual([7, 7, 7]);
    // The page went still while the window was full: its last paint may be lost.
    await pause(150);
    expect(refreshes()).toBe(1);
    await pause(150);
    expect(refreshes()).toBe(1);
    acks.stop();
  });

  it('needs no refresh when a frame follows the reopening, but does when that frame filled the window again', async () => {
    const { acks, refreshes } = acksWith(0);
    for (let i = 0; i < CHROME_UNACKED_FRAMES; i++) acks.received(2);
    for (let i = 0; i < CHROME_UNACKED_FRAMES; i++) acks.release(2);
    await pause(20);
    acks.received(2);
    acks.release(2);
    await pause(150);
    expect(refreshes()).toBe(0);

    for (let i = 0; i < CHROME_UNACKED_FRAMES; i++) acks.received(2);
    acks.release(2);
    await pause(20);
    // Admitted by that ack, this frame fills the window again; its paints after it may be lost.
    acks.received(2);
    for (let i = 0; i < CHROME_UNACKED_FRAMES; i++) acks.release(2);
    await pause(150);
    expect(refreshes()).toBe(1);
    acks.stop();
  });

  it('tries again at the next ack when a refresh could not be made', async () => {
    let allowed = false;
    const { acks, refreshes } = acksWith(0, () => allowed);
    for (let i = 0; i < CHROME_UNACKED_FRAMES; i++) acks.received(4);
    acks.release(4);
    await pause(150);
    expect(refreshes()).toBe(0);
    allowed = true;
    acks.release(4);
    await pause(150);
    expect(refreshes()).toBe(1);
    acks.stop();
  });
});
