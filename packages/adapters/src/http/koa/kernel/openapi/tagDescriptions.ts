/**
 * What each tag of the route table groups, for the document's `tags`. A route with a tag not listed
 * here is documented under a tag without a description, which the OpenAPI lint reports.
 */
export const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  Operations: 'Probes, metrics and this reference; no access token.',
  Authentication:
    'Sign-up, sign-in and token refresh, which need no access token; sign-out, the current user and sync, which do.',
  Projects: 'A user’s projects: the scope of sessions and agents. Another user’s project is a 404.',
  Sessions:
    'Cloud-browser sessions of a project at the configured provider (`{provider}`): start, read, list, release, logs, statistics.',
  Agents: 'Stored session defaults (script, environment, region, timeout) that a session can start from.',
  'API keys':
    'Long-lived, revocable project API keys for machine clients. Only the project’s owner, with an access token, manages them.',
};
