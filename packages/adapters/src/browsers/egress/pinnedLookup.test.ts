import { describe, expect, it } from 'vitest';
import { pinnedLookup } from './pinnedLookup.ts';

describe('pinnedLookup', () => {
  const lookup = pinnedLookup([
    { address: '127.0.0.1', family: 4 },
    { address: '::1', family: 6 },
  ]);
  const answer = (options: object) =>
    new Promise((resolve) => lookup('any.example', options, (...args: unknown[]) => resolve(args)));

  it('answers any name with the pinned addresses, honouring family and all', async () => {
    expect(await answer({})).toEqual([null, '127.0.0.1', 4]);
    expect(await answer({ family: 6 })).toEqual([null, '::1', 6]);
    expect(await answer({ family: 'IPv6', all: true })).toEqual([null, [{ address: '::1', family: 6 }]]);
    expect(await answer({ all: true })).toEqual([
      null,
      [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ],
    ]);
    const withoutOptions = await new Promise((resolve) =>
      lookup('other.example', (...args: unknown[]) => resolve(args)),
    );
    expect(withoutOptions).toEqual([null, '127.0.0.1', 4]);
  });

  it('fails like an unknown name when no pinned address has the family asked for', async () => {
    const v4only = pinnedLookup([{ address: '127.0.0.1', family: 4 }]);
    const [error] = await new Promise<unknown[]>((resolve) =>
      v4only('any.example', { family: 6 }, (...args: unknown[]) => resolve(args)),
    );
    expect(error).toMatchObject({ code: 'ENOTFOUND' });
  });
});
