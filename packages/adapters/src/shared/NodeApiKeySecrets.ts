import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { API_KEY_MARKER, API_KEY_RANDOM_BYTES, type ApiKeySecrets } from '@browserdeck/domain';

/**
 * Project API key secrets with Node's crypto: 32 bytes from the CSPRNG, base64url after `bdk_`; the
 * SHA-256 digest (hex) is what is stored, and comparison is constant-time. A fast hash is right here:
 * the key carries 256 random bits, so there is nothing for a slow password hash to protect.
 */
export class NodeApiKeySecrets implements ApiKeySecrets {
  generate(marker: string = API_KEY_MARKER): string {
    return `${marker}${randomBytes(API_KEY_RANDOM_BYTES).toString('base64url')}`;
  }

  digest(key: string): string {
    return createHash('sha256').update(key, 'utf8').digest('hex');
  }

  matches(key: string, digest: string): boolean {
    const expected = Buffer.from(digest, 'hex');
    const actual = createHash('sha256').update(key, 'utf8').digest();
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }
}
