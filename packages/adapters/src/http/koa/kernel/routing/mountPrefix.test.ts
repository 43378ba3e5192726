import { describe, expect, it } from 'vitest';
import { mountPrefix } from './mountPrefix.ts';

describe('mountPrefix', () => {
  it('is empty at the root, whatever the query', () => {
    expect(mountPrefix({ originalUrl: '/docs', path: '/docs' })).toBe('');
    expect(mountPrefix({ originalUrl: '/docs?x=/y', path: '/docs' })).toBe('');
    expect(mountPrefix({ originalUrl: '/', path: '/' })).toBe('');
  });

  it('is what a mount stripped from the path, also for nested mounts and the mount point', () => {
    expect(mountPrefix({ originalUrl: '/browserdeck/docs?a=1', path: '/docs' })).toBe('/browserdeck');
    expect(mountPrefix({ originalUrl: '/api/deck/v1/projects', path: '/v1/projects' })).toBe('/api/deck');
    expect(mountPrefix({ originalUrl: '/browserdeck', path: '/' })).toBe('/browserdeck');
    expect(mountPrefix({ originalUrl: '/browserdeck/', path: '/' })).toBe('/browserdeck');
    expect(mountPrefix({ originalUrl: 'http://example.test/browserdeck/docs', path: '/docs' })).toBe(
      '/browserdeck',
    );
    expect(mountPrefix({ originalUrl: 'http://example.test/docs', path: '/docs' })).toBe('');
  });

  it('is empty when the paths do not line up or the prefix is not a plain path', () => {
    expect(mountPrefix({ originalUrl: '/Docs', path: '/docs' })).toBe('');
    for (const originalUrl of [
      '//evil.example/docs',
      '/\\evil.example/docs',
      '/a//docs',
      '/../docs',
      '/a/%2E%2e/docs',
      '/"><script>/docs',
      'http://evil.example//docs',
    ]) {
      expect(mountPrefix({ originalUrl, path: '/docs' }), originalUrl).toBe('');
    }
  });
});
