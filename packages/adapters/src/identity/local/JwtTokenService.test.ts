import { createSecretKey, generateKeyPairSync, sign } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { importJwtKeys } from './importJwtKeys.ts';
import { JwtTokenService } from './JwtTokenService.ts';

const pair = generateKeyPairSync('ed25519');
const keys = await importJwtKeys(pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
const service = new JwtTokenService({ keys });
const now = new Date('2026-01-01T00:00:10.500Z');
const claims = { userId: 'u1', email: 'ada@example.com', sessionId: 's1', tokenId: 't1' };

async function refusal(token: string, at = now): Promise<string> {
  const error = await service.verify(token, at).then(
    () => expect.fail('expected the token to be refused'),
    (e: { code: string; message: string }) => e,
  );
  expect(error.code).toBe('unauthorized');
  return error.message;
}

describe('JwtTokenService', () => {
  it('round-trips claims; expiry is whole seconds from issue', async () => {
    const { token, expiresAt } = await service.sign(claims, now, 900);
    expect(expiresAt.toISOString()).toBe('2026-01-01T00:15:10.000Z');
    const verified = await service.verify(token, now);
    expect(verified).toEqual({
      ...claims,
      issuedAt: new Date('2026-01-01T00:00:10.000Z'),
      expiresAt,
    });
  });

  it('judges expiry by the time it is given, not the wall clock, also for a token verified before', async () => {
    const { token } = await service.sign(claims, now, 900);
    await expect(service.verify(token, new Date('2026-01-01T00:15:09.999Z'))).resolves.toBeDefined();
    await expect(service.verify(token, new Date('2026-01-01T00:15:09.999Z'))).resolves.toBeDefined();
    expect(await refusal(token, new Date('2026-01-01T00:15:10.000Z'))).toBe('The access token has expired.');
  });

  it('refuses a correctly signed JWT of another type, or missing or mistyping a claim', async () => {
    const signed = (payload: Record<string, unknown>, typ = 'at+jwt') =>
      new SignJWT(payload)
        .setProtectedHeader({ alg: 'EdDSA', typ })
        .setSubject('u1')
        .setIssuer('browserdeck')
        .setAudience('browserdeck')
        .setIssuedAt(now)
        .setExpirationTime('15m')
        .setJti('t1')
        .sign(keys.privateKey);
    const full = { email: 'ada@example.com', sid: 's1' };
    for (const token of [
      await signed(full, 'JWT'),
      await signed({ email: 'ada@example.com' }),
      await signed({ email: 'ada@example.com', sid: 42 }),
      await signed({ sid: 's1' }),
    ]) {
      expect(await refusal(token)).toBe('The access token is invalid.');
    }
    // Control: the same builder with every claim and the right type passes.
    await expect(service.verify(await signed(full), now)).resolves.toMatchObject(claims);
  });

  it('refuses a foreign key, a tampered part, another algorithm, issuer or audience, a future nbf and crit', async () => {
    const build = (
      payload: Record<string, unknown>,
      header: Record<string, unknown> = {},
      edit: (jwt: SignJWT) => SignJWT = (jwt) => jwt,
    ) =>
      edit(
        new SignJWT({ email: 'ada@example.com', sid: 's1', ...payload })
          .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', ...header })
          .setSubject('u1')
          .setIssuer('browserdeck')
          .setAudience('browserdeck')
          .setIssuedAt(now)
          .setExpirationTime('15m')
          .setJti('t1'),
      );
    // jose refuses to sign an unknown `crit`; an attacker would not.
    const signedByHand = (header: Record<string, unknown>, payload: string) => {
      const input = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${payload}`;
      return `${input}.${sign(null, Buffer.from(input), pair.privateKey).toString('base64url')}`;
    };
    const foreign = generateKeyPairSync('ed25519').privateKey;
    const good = await build({}).sign(keys.privateKey);
    const [h, p, s] = good.split('.') as [string, string, string];
    const otherPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: 'u2' }),
    ).toString('base64url');
    const flipped = `${s.slice(0, 10)}${s[10] === 'A' ? 'B' : 'A'}${s.slice(11)}`;
    // Verified (and remembered) first: what is remembered must not vouch for any other string.
    await expect(service.verify(good, now)).resolves.toMatchObject(claims);
    for (const token of [
      await build({}).sign(foreign),
      `${h}.${otherPayload}.${s}`,
      `${h}.${p}.${flipped}`,
      `${h}.${p}`,
      `${h}.${p}.${s}.${s}`,
      `${h}.${p}.${s}=`,
      `${Buffer.from('{"alg":"none","typ":"at+jwt"}').toString('base64url')}.${p}.`,
      await build({}, { alg: 'HS256' }).sign(createSecretKey(Buffer.alloc(32, 7))),
      await build({}, {}, (jwt) => jwt.setIssuer('someone-else')).sign(keys.privateKey),
      await build({}, {}, (jwt) => jwt.setAudience('someone-else')).sign(keys.privateKey),
      await build({}, {}, (jwt) => jwt.setNotBefore(new Date(now.getTime() + 60_000))).sign(keys.privateKey),
      signedByHand({ alg: 'EdDSA', typ: 'at+jwt', crit: ['x-policy'], 'x-policy': 1 }, p),
      `${Buffer.from('[1]').toString('base64url')}.${p}.${s}`,
      `${h}.${Buffer.from('not json').toString('base64url')}.${s}`,
    ]) {
      expect(await refusal(token)).toBe('The access token is invalid.');
    }
    // Controls: the untouched token passes, and so does an audience list that names us.
    await expect(service.verify(good, now)).resolves.toMatchObject(claims);
    const listed = await build({}, {}, (jwt) => jwt.setAudience(['other', 'browserdeck'])).sign(
      keys.privateKey,
    );
    await expect(service.verify(listed, now)).resolves.toMatchObject(claims);
  });

  it('refuses oversized and empty strings without parsing them', async () => {
    expect(await refusal('')).toBe('The access token is invalid.');
    expect(await refusal('a'.repeat(5000))).toBe('The access token is invalid.');
  });
});
