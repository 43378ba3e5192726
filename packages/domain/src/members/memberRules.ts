/** Members a project may have, the owner included, plus its open invitations (SPEC §17). */
export const MEMBERS_PER_PROJECT_MAX = 100;
/** How long an invitation link works: 7 days. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** What every invitation token starts with (then 32 random bytes, base64url). */
export const INVITATION_MARKER = 'bdi_';
/** An invitation token's shape. */
export const INVITATION_TOKEN_PATTERN = /^bdi_[A-Za-z0-9_-]{43}$/;
