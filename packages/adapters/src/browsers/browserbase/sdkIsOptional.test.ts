import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const folder = import.meta.dirname;

describe('@browserbasehq/sdk stays optional', () => {
  it('is imported for its values only through the lazy loader (the package index re-exports this folder)', () => {
    const sources = readdirSync(folder).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const offenders = sources.filter((file) => {
      const source = readFileSync(join(folder, file), 'utf8');
      return /^import\s+(?!type\b)[^;]*from\s+'@browserbasehq\/sdk'/m.test(source);
    });
    expect(sources).toContain('loadBrowserbaseSdk.ts');
    expect(offenders).toEqual([]);
  });
});
