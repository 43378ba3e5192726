import type { ApiKeySecrets } from '@browserdeck/domain';

/**
 * Deterministic key secrets for unit tests: numbered keys of the real shape and a reversible
 * "digest". Never for real use; the adapters' node implementation hashes with SHA-256.
 */
export class FakeApiKeySecrets implements ApiKeySecrets {
  private seq = 0;

  generate(marker = 'bdk_'): string {
    this.seq++;
    return `${marker}${String(this.seq).padStart(8, '0')}${'k'.repeat(35)}`;
  }

  digest(key: string): string {
    return `digest(${key})`;
  }

  matches(key: string, digest: string): boolean {
    return this.digest(key) === digest;
  }
}
