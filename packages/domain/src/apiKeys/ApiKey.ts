import type { ApiKeyRole } from '../access/projectRoles.ts';
import type { EntityState } from '../shared/EntityState.ts';
import { writable } from '../shared/writable.ts';
import { API_KEY_USAGE_STAMP_INTERVAL_MS } from './apiKeyRules.ts';

/** An API key's stored fields: what `ApiKey.restore` takes. */
export type ApiKeyState = EntityState<ApiKey>;

/**
 * A project API key (http-api.md §12). The key itself is never kept: only its clear `prefix`, to look
 * it up by, and the SHA-256 `digest` of the whole key, to compare with.
 */
export class ApiKey {
  readonly id!: string;
  readonly projectId!: string;
  /** The user who created it: the project's owner, whose records the key reaches in that project. */
  readonly ownerId!: string;
  readonly name!: string;
  /** The role the key acts with in its project (SPEC §17): `developer`, or the narrower `viewer`. */
  readonly role!: ApiKeyRole;
  readonly prefix!: string;
  readonly digest!: string;
  readonly createdAt!: Date;
  readonly expiresAt!: Date | null;
  readonly lastUsedAt!: Date | null;
  readonly revokedAt!: Date | null;

  private constructor() {}

  /** A new key; the caller has validated the name and expiry (`checkApiKeyRequest`). */
  static create(props: {
    id: string;
    projectId: string;
    ownerId: string;
    name: string;
    role: ApiKeyRole;
    prefix: string;
    digest: string;
    expiresAt: Date | null;
    now: Date;
  }): ApiKey {
    const { now, ...fields } = props;
    return Object.assign(new ApiKey(), { ...fields, createdAt: now, lastUsedAt: null, revokedAt: null });
  }

  /**
   * For repositories: the key `state` holds, as it was stored. No validation (a stored row was
   * valid when written); `state`'s fields become the instance's.
   */
  static restore(state: ApiKeyState): ApiKey {
    return Object.assign(new ApiKey(), state);
  }

  /** Whether the key may act at `now`: not revoked and not expired. */
  isUsableAt(now: Date): boolean {
    return this.revokedAt === null && (this.expiresAt === null || this.expiresAt.getTime() > now.getTime());
  }

  /**
   * Whether a use at `now` should be written down: the last stamp is more than a minute old, the
   * same test as `ApiKeyRepository.stampUsage`'s `notBefore`, so no write is asked for in vain.
   */
  needsUsageStamp(now: Date): boolean {
    return (
      this.lastUsedAt === null || now.getTime() - this.lastUsedAt.getTime() > API_KEY_USAGE_STAMP_INTERVAL_MS
    );
  }

  /** Ends the key; a revoked key stays revoked. */
  revoke(now: Date): void {
    if (this.revokedAt === null) writable(this).revokedAt = now;
  }
}
