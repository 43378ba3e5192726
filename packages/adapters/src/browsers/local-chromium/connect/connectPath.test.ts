import { describe, expect, it } from 'vitest';
import { buildConnectUrl, parseConnectRequest } from './connectPath.ts';

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

  it('recognises connect requests, with or without the prefix, and nothing else', () => {
    const publicUrl = 'https://deck.example.com/api';
    expect(parseConnectRequest(`/api/v1/local/sessions/${id}/connect?signingKey=abc`, publicUrl)).toEqual({
      providerSessionId: id,
      signingKey: 'abc',
    });
    expect(parseConnectRequest(`/v1/local/sessions/${id}/connect`, publicUrl)).toEqual({
      providerSessionId: id,
      signingKey: null,
    });
    for (const path of [
      `/other/v1/local/sessions/${id}/connect`,
      `/v1/local/sessions/${id}/connect/extra`,
      '/v1/local/sessions/../connect',
      '/v1/browserbase/sessions/x/connect',
      '/healthz',
      undefined,
    ])
      expect(parseConnectRequest(path, publicUrl)).toBeNull();
  });
});
