import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { API_TYPES_FILE, buildApiTypes } from '../../scripts/buildApiTypes.ts';

/** The first line where two texts differ, as `line N: "…" ≠ "…"`, to say where the file is stale. */
function firstDifference(committed: string, fresh: string): string {
  const a = committed.split('\n');
  const b = fresh.split('\n');
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}: ${JSON.stringify(a[at] ?? '')} ≠ ${JSON.stringify(b[at] ?? '')}`;
}

describe('the console’s API types (src/api/openapi.ts)', () => {
  it('are what the API’s OpenAPI document generates now', async () => {
    const fresh = await buildApiTypes();
    const committed = await readFile(API_TYPES_FILE, 'utf8').catch(() => '');
    expect(
      committed === fresh,
      `src/api/openapi.ts is stale (${firstDifference(committed, fresh)}): ` +
        'run npm run generate:api -w @browserdeck/console',
    ).toBe(true);
  });
});
