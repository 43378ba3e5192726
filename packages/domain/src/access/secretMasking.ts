import type { ProjectRole } from './projectRoles.ts';

/** What a viewer reads in place of a secret value (SPEC §17). */
export const MASKED_SECRET = '********';

/** Whether `role` reads secret values: every role but `viewer`, who sees them masked. */
export function seesSecrets(role: ProjectRole): boolean {
  return role !== 'viewer';
}

/** `values` with every value masked and every name kept, so a viewer sees what is set, not to what. */
export function maskedValues(values: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.keys(values).map((name) => [name, MASKED_SECRET]));
}

/**
 * `url` with the secrets a URL carries masked: its `signingKey` (a connect URL's key, which drives the
 * browser) and the password of its user info. Text, not `URL`: the domain runs on no platform's APIs.
 */
export function maskedUrl(url: string): string {
  return url
    .replace(/^([a-z][a-z\d+.-]*:\/\/[^/?#@:]*:)[^/?#@]*@/i, `$1${MASKED_SECRET}@`)
    .replace(/([?&]signingKey=)[^&#]*/g, `$1${MASKED_SECRET}`);
}
