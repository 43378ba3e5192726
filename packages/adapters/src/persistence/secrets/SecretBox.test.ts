import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from './SecretBox.ts';
import { SecretBoxError } from './SecretBoxError.ts';

const key = Buffer.alloc(32, 7);

describe('SecretBox', () => {
  it('opens what it sealed, unicode and empty strings included', () => {
    const box = new SecretBox(key);
    for (const text of ['', '{"A":"1"}', 'ünïcødé ✓ 🙂', 'x'.repeat(100_000)]) {
      expect(box.open(box.seal(text))).toBe(text);
    }
  });

  it('seals as v1.<key id>.<iv>.<tag>.<ciphertext> with a fresh IV each time', () => {
    const box = new SecretBox(key);
    const a = box.seal('same');
    const b = box.seal('same');
    expect(a).toMatch(/^v1\.[\w-]{8}\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(a).not.toBe(b);
    expect(a.split('.')[2]).not.toBe(b.split('.')[2]);
    expect(a).not.toContain(Buffer.from('same').toString('base64url'));
    // The same key always has the same id; another key another.
    expect(a.split('.')[1]).toBe(new SecretBox(Buffer.from(key)).keyId);
    expect(new SecretBox(randomBytes(32)).keyId).not.toBe(box.keyId);
  });

  it('refuses a value sealed under another key, saying so', () => {
    const sealed = new SecretBox(randomBytes(32)).seal('secret');
    expect(() => new SecretBox(key).open(sealed)).toThrow(SecretBoxError);
    expect(() => new SecretBox(key).open(sealed)).toThrow(/another key.*SECRET_KEY/);
  });

  it('refuses damaged or tampered values without revealing them', () => {
    const box = new SecretBox(key);
    const sealed = box.seal('secret-value');
    const [v, id, iv, tag, ct] = sealed.split('.') as [string, string, string, string, string];
    const flip = (part: string) => {
      const bytes = Buffer.from(part, 'base64url');
      bytes[0] = (bytes[0] ?? 0) ^ 1;
      return bytes.toString('base64url');
    };
    for (const bad of [
      [v, id, iv, tag, flip(ct)].join('.'),
      [v, id, iv, flip(tag), ct].join('.'),
      [v, id, flip(iv), tag, ct].join('.'),
      ['v2', id, iv, tag, ct].join('.'),
      [v, id, iv.slice(2), tag, ct].join('.'),
      'plain text',
      '',
    ]) {
      const error = (() => {
        try {
          box.open(bad);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(SecretBoxError);
      expect(String((error as Error).message)).not.toContain('secret-value');
    }
  });

  it('digests deterministically, keyed', () => {
    const box = new SecretBox(key);
    expect(box.digest('body')).toMatch(/^[0-9a-f]{64}$/);
    expect(box.digest('body')).toBe(new SecretBox(Buffer.from(key)).digest('body'));
    expect(box.digest('body')).not.toBe(box.digest('body2'));
    expect(new SecretBox(randomBytes(32)).digest('body')).not.toBe(box.digest('body'));
  });

  it('signs alike under one key, differently per purpose and per key', () => {
    const box = new SecretBox(key);
    const cursors = box.signer('log-cursor');
    expect(cursors.sign('s:1')).toMatch(/^[0-9a-f]{64}$/);
    expect(cursors.sign('s:1')).toBe(new SecretBox(Buffer.from(key)).signer('log-cursor').sign('s:1'));
    expect(cursors.sign('s:1')).not.toBe(cursors.sign('s:2'));
    expect(box.signer('other').sign('s:1')).not.toBe(cursors.sign('s:1'));
    expect(new SecretBox(randomBytes(32)).signer('log-cursor').sign('s:1')).not.toBe(cursors.sign('s:1'));
  });

  it('opens values and reproduces digests stored by earlier releases (the format is stable)', () => {
    const box = new SecretBox(Buffer.alloc(32, 7));
    expect(
      box.open(
        'v1.9IMZY3Fs.AlU5wEphTu49w3bR.7OC9YsPiJuVxMHbPNgxW3w.p7_AO39LhxPSNJ5IX7PZdhVMiFugi_tdYm0svmEMEFepL_QlHVYLV4ju',
      ),
    ).toBe('{"API_TOKEN":"s3cret","GREETING":"héllo"}');
    expect(box.digest('ada@example.com')).toBe(
      '303763e5ad92342899e54da41d6a186b3b17b4a464f74f40c7f45a903dd76cbd',
    );
  });

  it('takes 32-byte keys only', () => {
    expect(() => new SecretBox(Buffer.alloc(16))).toThrow(RangeError);
    expect(() => new SecretBox(Buffer.alloc(33))).toThrow(RangeError);
  });
});
