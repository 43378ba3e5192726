import { describe, expect, it } from 'vitest';
import { planRecordingSpace, type RecordingUsage, recordingsOf } from './recordingSpace.ts';

const MB = 1024 * 1024;
const at = (minute: number) => new Date(Date.UTC(2026, 11, 3, 12, minute));
const usage = (id: string, ownerId: string, mb: number, minute: number): RecordingUsage => ({
  providerSessionId: id,
  ownerId,
  bytes: mb * MB,
  lastWrite: at(minute),
});
const limits = {
  perSessionBytes: 10 * MB,
  perOwnerBytes: 30 * MB,
  totalBytes: 50 * MB,
  active: new Set<string>(),
};

describe('recordingsOf', () => {
  it('sums each recording’s blobs, takes its last write and its owner from the owner key', () => {
    expect(
      recordingsOf([
        { key: 'recordings/s1/manifest', bytes: 100, updatedAt: at(1) },
        { key: 'recordings/s1/0/video/video.mp4', bytes: 900, updatedAt: at(3) },
        { key: 'recordings/s1/owner/user%2F1', bytes: 0, updatedAt: at(0) },
        { key: 'recordings/s2/manifest', bytes: 50, updatedAt: at(2) },
      ]),
    ).toEqual([
      { providerSessionId: 's1', ownerId: 'user/1', bytes: 1000, lastWrite: at(3) },
      { providerSessionId: 's2', ownerId: null, bytes: 50, lastWrite: at(2) },
    ]);
  });
});

describe('planRecordingSpace', () => {
  it('gives the per-session bound when there is room, and evicts nothing', () => {
    expect(planRecordingSpace([usage('a1', 'a', 5, 1)], { ...limits, ownerId: 'a' })).toEqual({
      maxBytes: 10 * MB,
      evict: [],
    });
  });

  it('evicts the owner’s own oldest recordings to stay within its share, never one being written', () => {
    const recordings = [
      usage('a1', 'a', 10, 1),
      usage('a2', 'a', 10, 2),
      usage('a3', 'a', 10, 3),
      usage('b1', 'b', 10, 0),
    ];
    expect(planRecordingSpace(recordings, { ...limits, ownerId: 'a' })).toEqual({
      maxBytes: 10 * MB,
      evict: ['a1'],
    });
    const active = new Set(['a1']);
    expect(planRecordingSpace(recordings, { ...limits, ownerId: 'a', active })).toEqual({
      maxBytes: 10 * MB,
      evict: ['a2'],
    });
  });

  it('never evicts another account’s recordings: a full store leaves the newcomer less room, or none', () => {
    const others = [usage('b1', 'b', 25, 1), usage('c1', 'c', 20, 2)];
    expect(planRecordingSpace(others, { ...limits, ownerId: 'a' })).toEqual({ maxBytes: 5 * MB, evict: [] });
    const full = [usage('b1', 'b', 30, 1), usage('c1', 'c', 20, 2)];
    expect(planRecordingSpace(full, { ...limits, ownerId: 'a' })).toEqual({ maxBytes: 0, evict: [] });
  });

  it('evicts its own to make room in a full store, down to what the others leave', () => {
    const recordings = [usage('a1', 'a', 10, 1), usage('b1', 'b', 30, 0), usage('c1', 'c', 10, 2)];
    expect(planRecordingSpace(recordings, { ...limits, ownerId: 'a' })).toEqual({
      maxBytes: 10 * MB,
      evict: ['a1'],
    });
  });
});
