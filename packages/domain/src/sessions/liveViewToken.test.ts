import { describe, expect, it } from 'vitest';
import { issueLiveViewToken, readLiveViewToken } from './liveViewToken.ts';
import { CHECKSUM_CURSOR_SIGNER, type CursorSigner } from './logCursor.ts';

/** A stand-in for a keyed MAC: the checksum of the text under a secret prefix. */
const keyed = (secret: string): CursorSigner => ({
  sign: (text) => CHECKSUM_CURSOR_SIGNER.sign(`${secret}|${text}`).repeat(8),
});

const claims = {
  sessionId: '0190a3c4-0000-7000-8000-000000000001',
  projectId: '0190a3c4-0000-7000-8000-000000000002',
  expiresAt: new Date('2026-03-01T13:00:00.000Z'),
};

describe('live-view tokens', () => {
  it('read back the claims they were issued with, and are URL-safe', () => {
    const signer = keyed('k1');
    const token = issueLiveViewToken(signer, claims);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(readLiveViewToken(signer, token)).toEqual(claims);
  });

  it('round-trip ids of every length and non-ASCII characters', () => {
    const signer = keyed('k1');
    for (const sessionId of ['a', 'ab', 'abc', 'abcd', 'é-ü-名前', '"quoted"\\']) {
      const token = issueLiveViewToken(signer, { ...claims, sessionId });
      expect(readLiveViewToken(signer, token)?.sessionId).toBe(sessionId);
    }
  });

  it('keep whole seconds of the expiry', () => {
    const signer = keyed('k1');
    const token = issueLiveViewToken(signer, { ...claims, expiresAt: new Date('2026-03-01T13:00:00.999Z') });
    expect(readLiveViewToken(signer, token)?.expiresAt).toEqual(new Date('2026-03-01T13:00:00.000Z'));
  });

  it('refuse another key’s token, a changed payload, a changed tag and garbage', () => {
    const signer = keyed('k1');
    const token = issueLiveViewToken(signer, claims);
    const [payload, tag] = token.split('.') as [string, string];
    const other = issueLiveViewToken(signer, { ...claims, sessionId: `${claims.sessionId.slice(0, -1)}9` });
    const flip = (text: string, at: number) =>
      text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);

    expect(readLiveViewToken(keyed('k2'), token)).toBeNull();
    expect(readLiveViewToken(signer, `${other.split('.')[0]}.${tag}`)).toBeNull();
    expect(readLiveViewToken(signer, `${flip(payload, 3)}.${tag}`)).toBeNull();
    expect(readLiveViewToken(signer, `${payload}.${flip(tag, 0)}`)).toBeNull();
    expect(readLiveViewToken(signer, `${payload}.${tag.slice(0, -1)}`)).toBeNull();
    expect(readLiveViewToken(signer, `${payload}.${tag}x`)).toBeNull();
    for (const garbage of ['', '.', 'abc', `${payload}.`, `.${tag}`, `${token}.x`, `${payload} .${tag}`]) {
      expect(readLiveViewToken(signer, garbage), garbage).toBeNull();
    }
    expect(readLiveViewToken(signer, `${'A'.repeat(2000)}.${tag}`)).toBeNull();
  });

  it('refuse a signed payload that is not the claims JSON', () => {
    const signer = keyed('k1');
    // What a token with these payloads (base64url of the JSON in the comment) would carry if the
    // server had signed them: still refused.
    const sign = (payload: string) => `${payload}.${signer.sign(`live-view-token:${payload}`).slice(0, 32)}`;
    expect(readLiveViewToken(signer, sign('bm90IGpzb24'))).toBeNull(); // not json
    expect(readLiveViewToken(signer, sign('bnVsbA'))).toBeNull(); // null
    expect(readLiveViewToken(signer, sign('eyJzIjoxLCJwIjoicCIsImUiOjF9'))).toBeNull(); // {"s":1,"p":"p","e":1}
    expect(readLiveViewToken(signer, sign('eyJzIjoicyIsInAiOiJwIiwiZSI6MS41fQ'))).toBeNull(); // e: 1.5
    expect(readLiveViewToken(signer, sign('eyJzIjoicyIsInAiOiJwIiwiZSI6MX0'))).toEqual({
      sessionId: 's',
      projectId: 'p',
      expiresAt: new Date(1000),
    }); // {"s":"s","p":"p","e":1}
    expect(readLiveViewToken(signer, sign('A'))).toBeNull(); // not base64url
    expect(readLiveViewToken(signer, sign('_w'))).toBeNull(); // ÿ: not ASCII
  });

  it('encode the payload as standard base64url of the claims JSON', () => {
    const token = issueLiveViewToken(keyed('k1'), claims);
    // Buffer.from(JSON.stringify({ s, p, e: 1772370000 })).toString('base64url')
    expect(token.split('.')[0]).toBe(
      'eyJzIjoiMDE5MGEzYzQtMDAwMC03MDAwLTgwMDAtMDAwMDAwMDAwMDAxIiwicCI6IjAxOTBhM2M0LTAwMDAtNzAwMC04MDAwLTAwMDAwMDAwMDAwMiIsImUiOjE3NzIzNzAwMDB9',
    );
  });
});
