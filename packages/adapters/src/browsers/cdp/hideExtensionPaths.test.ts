import { describe, expect, it } from 'vitest';
import { hideExtensionPaths } from './hideExtensionPaths.ts';

describe('hideExtensionPaths', () => {
  it('replaces each extension’s host path with /extensions/<id>, keeping the rest of the answer', () => {
    const answer = {
      id: 3,
      sessionId: 'S',
      result: {
        extensions: [
          {
            id: 'abc',
            name: 'Stagehand Runtime',
            version: '1.3.0',
            path: '/tmp/p/BrowserdeckExtension',
            enabled: true,
          },
        ],
      },
    };
    expect(hideExtensionPaths(answer)).toEqual({
      id: 3,
      sessionId: 'S',
      result: {
        extensions: [
          { id: 'abc', name: 'Stagehand Runtime', version: '1.3.0', path: '/extensions/abc', enabled: true },
        ],
      },
    });
  });

  it('passes errors and other answers as they are', () => {
    const error = { id: 4, error: { code: -32601, message: "'Extensions.getExtensions' wasn't found" } };
    expect(hideExtensionPaths(error)).toBe(error);
    const other = { id: 5, result: { targetInfos: [] } };
    expect(hideExtensionPaths(other)).toBe(other);
  });
});
