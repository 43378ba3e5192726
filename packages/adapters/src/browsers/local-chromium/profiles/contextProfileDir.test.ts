import { join } from 'node:path';
import { ValidationError } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import { contextProfileDir } from './contextProfileDir.ts';

describe('contextProfileDir', () => {
  it('maps a context id to <dataDir>/contexts/<projectId>/<id>: one namespace per project', () => {
    expect(contextProfileDir('/data', 'p-1', 'ctx_1-A')).toBe(join('/data', 'contexts', 'p-1', 'ctx_1-A'));
    expect(contextProfileDir('/data', 'p-1', 'shared')).not.toBe(contextProfileDir('/data', 'p-2', 'shared'));
  });

  it('refuses ids that are not plain names', () => {
    for (const id of ['', '.', '..', '../x', 'a/b', 'a\\b', '-leading', 'sp ace', 'é', 'x'.repeat(129)])
      expect(() => contextProfileDir('/data', 'p-1', id), id).toThrow(ValidationError);
  });

  it('never lets a project id leave the folder', () => {
    for (const project of ['', '..', '../p', 'a/b'])
      expect(() => contextProfileDir('/data', project, 'c')).toThrow();
  });
});
