import type { RunLogLine, RunLogStore, RunLogStream } from '@browserdeck/domain';
import { RUN_LOG_LINE_MAX_BYTES } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import { AWKWARD_OPAQUE } from './awkwardText.ts';

/** A fresh, empty log store, and a way to create the run rows its lines belong to. */
export interface RunLogStoreFixture {
  logs: RunLogStore;
  /** Makes run `runId` exist (database stores need the row, and its project, for their foreign keys). */
  givenRun(runId: string): Promise<void>;
}

const R1 = '0190e100-0000-7000-8000-0000000000c1';
const R2 = '0190e100-0000-7000-8000-0000000000c2';

/** A line as a comparison sees it: the timestamp as an ISO string, so it covers the millisecond. */
function plain(line: RunLogLine): Record<string, unknown> {
  return { ...line, timestamp: line.timestamp.toISOString() };
}

/**
 * Behaviour every `RunLogStore` must have (http-api.md §11): lines round-trip whole, an append is
 * idempotent per `seq` (a retried batch never doubles a line, also under concurrency), and reads
 * return the lines after a `seq`, in order, a page at a time, of one run only. `create` gives a
 * fresh, empty store.
 */
export function describeRunLogStoreContract(
  name: string,
  options: { create: () => Promise<RunLogStoreFixture> },
): void {
  describe(`RunLogStore contract: ${name}`, () => {
    const base = Date.parse('2026-03-03T10:00:00.789Z');
    const streams: RunLogStream[] = ['stdout', 'stderr', 'console', 'system'];

    function line(seq: number, message = `line ${seq}`): RunLogLine {
      return { seq, timestamp: new Date(base + seq * 7), stream: streams[seq % 4]!, message };
    }

    function lines(from: number, to: number): RunLogLine[] {
      return Array.from({ length: to - from + 1 }, (_, i) => line(from + i));
    }

    async function setUp(): Promise<RunLogStore> {
      const fixture = await options.create();
      await fixture.givenRun(R1);
      await fixture.givenRun(R2);
      return fixture.logs;
    }

    it('round-trips every field of every stream, awkward, empty and longest messages included', async () => {
      const logs = await setUp();
      const stored = [
        line(1, 'hello ✓ 🚀'),
        line(2, AWKWARD_OPAQUE),
        line(3, ''),
        line(4, 'é'.repeat(RUN_LOG_LINE_MAX_BYTES / 2)),
        line(5, '{"json": true}'),
      ];
      await logs.append(R1, stored);
      expect((await logs.read(R1, 0, 100)).map(plain)).toEqual(stored.map(plain));
    });

    it('reads the lines after a seq, in seq order, at most limit', async () => {
      const logs = await setUp();
      await logs.append(R1, lines(1, 3));
      await logs.append(R1, lines(4, 10));
      const seqs = async (after: number, limit: number) =>
        (await logs.read(R1, after, limit)).map((l) => l.seq);
      expect(await seqs(0, 100)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(await seqs(0, 3)).toEqual([1, 2, 3]);
      expect(await seqs(3, 4)).toEqual([4, 5, 6, 7]);
      expect(await seqs(9, 100)).toEqual([10]);
      expect(await seqs(10, 100)).toEqual([]);
      expect(await seqs(42, 100)).toEqual([]);
    });

    it('keeps seq order whatever order the lines were appended in', async () => {
      const logs = await setUp();
      await logs.append(R1, [line(12), line(11)]);
      await logs.append(R1, lines(1, 10).reverse());
      expect((await logs.read(R1, 0, 100)).map((l) => l.seq)).toEqual(
        Array.from({ length: 12 }, (_, i) => i + 1),
      );
    });

    it('ignores a seq already stored: a retried batch keeps the first lines and doubles none', async () => {
      const logs = await setUp();
      await logs.append(R1, lines(1, 3));
      await logs.append(R1, [line(2, 'retried 2'), line(3, 'retried 3'), line(4)]);
      const read = await logs.read(R1, 0, 100);
      expect(read.map(plain)).toEqual(lines(1, 4).map(plain));
    });

    it('stores overlapping batches appended at once exactly once each', async () => {
      const logs = await setUp();
      await Promise.all([
        logs.append(R1, lines(1, 20)),
        logs.append(R1, lines(10, 30)),
        logs.append(R1, lines(1, 30)),
      ]);
      expect((await logs.read(R1, 0, 100)).map(plain)).toEqual(lines(1, 30).map(plain));
    });

    it('keeps runs apart: the same seqs of two runs are two lines, each read only with its run', async () => {
      const logs = await setUp();
      await logs.append(R1, lines(1, 3));
      await logs.append(R2, [line(1, 'other 1'), line(2, 'other 2')]);
      expect((await logs.read(R1, 0, 100)).map((l) => l.message)).toEqual(['line 1', 'line 2', 'line 3']);
      expect((await logs.read(R2, 0, 100)).map((l) => l.message)).toEqual(['other 1', 'other 2']);
      expect(await logs.read('0190e100-0000-7000-8000-00000000dead', 0, 100)).toEqual([]);
    });

    it('takes an empty batch as nothing to do', async () => {
      const logs = await setUp();
      await logs.append(R1, []);
      expect(await logs.read(R1, 0, 100)).toEqual([]);
    });

    it('reads a large batch back whole, a page at a time', async () => {
      const logs = await setUp();
      await logs.append(R1, lines(1, 1500));
      const first = await logs.read(R1, 0, 1000);
      const rest = await logs.read(R1, 1000, 1000);
      expect(first).toHaveLength(1000);
      expect(first[999]!.seq).toBe(1000);
      expect(rest.map((l) => l.seq)).toEqual(Array.from({ length: 500 }, (_, i) => 1001 + i));
      expect(plain(rest[499]!)).toEqual(plain(line(1500)));
    });

    it('deletes at most limit lines of the runs it is given per call, and none of another run', async () => {
      const logs = await setUp();
      await logs.append(R1, lines(1, 10));
      await logs.append(R2, lines(1, 5));
      expect(await logs.deleteOfRuns([R1], 4)).toBe(4);
      expect(await logs.read(R1, 0, 100)).toHaveLength(6);
      expect(await logs.deleteOfRuns([R1], 4)).toBe(4);
      expect(await logs.deleteOfRuns([R1], 4)).toBe(2);
      expect(await logs.deleteOfRuns([R1], 4)).toBe(0);
      expect(await logs.read(R1, 0, 100)).toEqual([]);
      expect((await logs.read(R2, 0, 100)).map(plain)).toEqual(lines(1, 5).map(plain));
      const unknown = '0190e100-0000-7000-8000-00000000dead';
      expect(await logs.deleteOfRuns([unknown, 'not-a-uuid'], 100)).toBe(0);
      expect(await logs.deleteOfRuns([], 100)).toBe(0);
      expect(await logs.deleteOfRuns([R1, R2], 100)).toBe(5);
      expect(await logs.read(R2, 0, 100)).toEqual([]);
    });

    it('deletes a large run’s lines a bounded batch at a time', async () => {
      const logs = await setUp();
      await logs.append(R1, lines(1, 2500));
      await logs.append(R2, lines(1, 2));
      expect(await logs.deleteOfRuns([R1, R2], 1000)).toBe(1000);
      expect(await logs.deleteOfRuns([R1, R2], 1000)).toBe(1000);
      expect(await logs.deleteOfRuns([R1, R2], 1000)).toBe(502);
      expect(await logs.read(R1, 0, 3000)).toEqual([]);
      expect(await logs.read(R2, 0, 10)).toEqual([]);
    });
  });
}
