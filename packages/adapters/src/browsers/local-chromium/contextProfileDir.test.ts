import { join } from 'node:path';
import { ValidationError } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import { contextProfileDir } from './contextProfileDir.ts';

describe('contextProfileDir', () => {
  it('maps a context id to <dataDir>/contexts/<id>', () => {
    expect(contextProfileDir('/data', 'ctx_1-A')).toBe(join('/data', 'contexts', 'ctx_1-A'));
  });

  it('refuses ids that are not plain names', () => {
    for (const id of ['', '.', '..', '../x', 'a/b', 'a\\b', '-leading', 'sp ace', 'é', 'x'.repeat(129)])
      expect(() => contextProfileDir('/data', id), id).toThrow(ValidationError);
  });
});
