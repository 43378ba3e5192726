import { describe, expect, it } from 'vitest';
import { buildConnectUrl } from './connectPath.ts';

const id = '0190b2c4-7a1e-7c3d-9a2b-112233445566';

describe('connect URLs', () => {
  it('turns the public URL into ws:// or wss://, keeping a path prefix', () => {
    expect(buildConnectUrl('http://127.0.0.1:3000', id, 'k_ey-1')).toBe(
      `ws://127.0.0.1:3000/v1/local/sessions/${id}/connect?signingKey=k_ey-1`,
    );
    expect(buildConnectUrl('https://deck.example.com/api/', id, 'key')).toBe(
      `wss://deck.example.com/api/v1/local/sessions/${id}/connect?signingKey=key`,
    );
  });
});
