import { describe, expect, it } from 'vitest';
import { issueLiveViewToken, type LiveViewTokenClaims, readLiveViewToken } from './liveViewToken.ts';
import { CHECKSUM_CURSOR_SIGNER, type CursorSigner } from './logCursor.ts';

/** A stand-in for a keyed MAC: the checksum of the text under a secret prefix. */
const keyed = (secret: string): CursorSigner => ({
  sign: (text) => CHECKSUM_CURSOR_SIGNER.sign(`${secret}|${text}`).repeat(8),
});

const claims: LiveViewTokenClaims = {
  sessionId: '0190a3c4-0000-7000-8000-000000000001',
  projectId: '0190a3c4-0000-7000-8000-000000000002',
  userId: 'owner-1',
  credential: { kind: 'apiKey', keyId: '0190a3c4-0000-7000-8000-000000000003' },
  readOnly: true,
  expiresAt: new Date('2026-03-01T13:00:00.000Z'),
};

describe('live-view tokens', () => {
  it('read back the claims they were issued with, and are URL-safe', () => {
    const signer = keyed('k1');
    const token = issueLiveViewToken(signer, claims);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(readLiveViewToken(signer, token)).toEqual(claims);
  });

  it('carry the credential that made them (sign-in, API key or an in-process owner) and read-only either way', () => {
    const signer = keyed('k1');
    for (const credential of [
      { kind: 'signIn', signInId: 'sign-in-1' },
      { kind: 'signIn', signInId: 's:with:colons' },
      { kind: 'apiKey', keyId: 'key-1' },
      { kind: 'owner' },
    ] as const) {
      for (const readOnly of [true, false]) {
        const issued = { ...claims, credential, readOnly };
        expect(readLiveViewToken(signer, issueLiveViewToken(signer, issued))).toEqual(issued);
      }
    }
  });

  it('cannot be widened: a full token is another tag than the read-only one, and a changed flag is refused', () => {
    const signer = keyed('k1');
    const readOnly = issueLiveViewToken(signer, claims);
    const full = issueLiveViewToken(signer, { ...claims, readOnly: false });
    const [readOnlyPayload] = readOnly.split('.') as [string, string];
    const [fullPayload, fullTag] = full.split('.') as [string, string];
    expect(fullPayload).not.toBe(readOnlyPayload);
    expect(readLiveViewToken(signer, `${fullPayload}.${readOnly.split('.')[1]}`)).toBeNull();
    expect(readLiveViewToken(signer, `${readOnlyPayload}.${fullTag}`)).toBeNull();
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
    expect(
      readLiveViewToken(signer, sign('eyJzIjoicyIsInAiOiJwIiwibyI6Im8iLCJjIjoibyIsInIiOmZhbHNlLCJlIjoxfQ')),
    ).toEqual({
      sessionId: 's',
      projectId: 'p',
      userId: 'o',
      credential: { kind: 'owner' },
      readOnly: false,
      expiresAt: new Date(1000),
    }); // {"s":"s","p":"p","o":"o","c":"o","r":false,"e":1}
    // The earlier format, with no owner, credential or read-only flag: refused, not read as a full token.
    expect(readLiveViewToken(signer, sign('eyJzIjoicyIsInAiOiJwIiwiZSI6MX0'))).toBeNull(); // {"s":"s","p":"p","e":1}
    // {"s":"s","p":"p","c":"o","r":false,"e":1}: no owner
    expect(
      readLiveViewToken(signer, sign('eyJzIjoicyIsInAiOiJwIiwiYyI6Im8iLCJyIjpmYWxzZSwiZSI6MX0')),
    ).toBeNull();
    // {…,"c":"x:1",…}: an unknown credential; {…,"c":"s:",…}: no id; {…,"r":"true",…}: not a boolean
    expect(
      readLiveViewToken(signer, sign('eyJzIjoicyIsInAiOiJwIiwibyI6Im8iLCJjIjoieDoxIiwiciI6ZmFsc2UsImUiOjF9')),
    ).toBeNull();
    expect(
      readLiveViewToken(signer, sign('eyJzIjoicyIsInAiOiJwIiwibyI6Im8iLCJjIjoiczoiLCJyIjpmYWxzZSwiZSI6MX0')),
    ).toBeNull();
    expect(
      readLiveViewToken(signer, sign('eyJzIjoicyIsInAiOiJwIiwibyI6Im8iLCJjIjoibyIsInIiOiJ0cnVlIiwiZSI6MX0')),
    ).toBeNull();
    expect(readLiveViewToken(signer, sign('A'))).toBeNull(); // not base64url
    expect(readLiveViewToken(signer, sign('_w'))).toBeNull(); // ÿ: not ASCII
  });

  it('encode the payload as standard base64url of the claims JSON', () => {
    const token = issueLiveViewToken(keyed('k1'), claims);
    // Buffer.from(JSON.stringify({ s, p, o: 'owner-1', c: 'k:<key id>', r: true, e: 1772370000 }))
    //   .toString('base64url')
    expect(token.split('.')[0]).toBe(
      'eyJzIjoiMDE5MGEzYzQtMDAwMC03MDAwLTgwMDAtMDAwMDAwMDAwMDAxIiwicCI6IjAxOTBhM2M0LTAwMDAtNzAwMC04MDAwLTAwMDAwMDAwMDAwMiIsIm8iOiJvd25lci0xIiwiYyI6Ims6MDE5MGEzYzQtMDAwMC03MDAwLTgwMDAtMDAwMDAwMDAwMDAzIiwiciI6dHJ1ZSwiZSI6MTc3MjM3MDAwMH0',
    );
  });
});
