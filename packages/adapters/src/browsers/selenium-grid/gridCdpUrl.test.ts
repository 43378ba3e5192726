import { describe, expect, it } from 'vitest';
import { gridCdpUrl } from './gridCdpUrl.ts';

describe('gridCdpUrl', () => {
  const id = 'abc123';
  it('keeps the path of se:cdp and puts the Grid URL’s scheme and host in front', () => {
    expect(
      gridCdpUrl(new URL('http://grid.example:4444/'), id, 'ws://selenium-hub:4444/session/abc123/se/cdp'),
    ).toBe('ws://grid.example:4444/session/abc123/se/cdp');
    expect(
      gridCdpUrl(new URL('https://grid.example/'), id, 'ws://selenium-node-5:4444/session/abc123/se/cdp'),
    ).toBe('wss://grid.example/session/abc123/se/cdp');
  });

  it('keeps the Grid URL’s own path in front when the Grid does not know it', () => {
    expect(gridCdpUrl(new URL('https://lb.example/grid/'), id, 'ws://hub:4444/session/abc123/se/cdp')).toBe(
      'wss://lb.example/grid/session/abc123/se/cdp',
    );
    expect(
      gridCdpUrl(new URL('https://lb.example/grid/'), id, 'ws://hub:4444/grid/session/abc123/se/cdp'),
    ).toBe('wss://lb.example/grid/session/abc123/se/cdp');
  });

  it('falls back to the router’s own endpoint without se:cdp, and refuses what is not a WebSocket URL', () => {
    expect(gridCdpUrl(new URL('http://grid:4444/wd/hub/'), id, undefined)).toBe(
      'ws://grid:4444/wd/hub/session/abc123/se/cdp',
    );
    expect(gridCdpUrl(new URL('http://grid:4444/'), id, 'http://grid:4444/x')).toBeNull();
    expect(gridCdpUrl(new URL('http://grid:4444/'), id, 'not a url')).toBeNull();
  });
});
