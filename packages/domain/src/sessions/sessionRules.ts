import { type Checks, utf8Length } from '../shared/checks.ts';

/** Session and agent limits (http-api.md §5–6). The HTTP schemas import these. */
export const SESSION_NAME_MAX_LENGTH = 200;
export const SCRIPT_MAX_BYTES = 256 * 1024;
export const ENV_MAX_KEYS = 100;
export const ENV_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const ENV_VALUE_MAX_BYTES = 8 * 1024;
export const TIMEOUT_MIN_SEC = 60;
export const TIMEOUT_MAX_SEC = 21_600;
export const DEFAULT_TIMEOUT_SEC = 300;
export const PROVIDER_PROJECT_ID_MAX_LENGTH = 128;
/** Longest extension or context id accepted. */
export const PROVIDER_REF_MAX_LENGTH = 128;
export const SESSION_LIST_MAX_LIMIT = 100;
export const SESSION_LIST_DEFAULT_LIMIT = 20;
export const SESSION_LOGS_MAX_LIMIT = 500;
export const SESSION_LOGS_DEFAULT_LIMIT = 100;
/** Largest recorded log entry, as JSON bytes: longer strings and params are cut with a marker. */
export const SESSION_LOG_ENTRY_MAX_BYTES = 16 * 1024;
/** A session's log budget by default (JSON bytes); past it the oldest entries go first. */
export const SESSION_LOG_DEFAULT_BUDGET_BYTES = 8 * 1024 * 1024;
/** Smallest width or height of a session's viewport, in CSS pixels (Browserbase's bounds). */
export const VIEWPORT_MIN_SIDE = 100;
/** Largest width or height of a session's viewport (8K UHD's width). */
export const VIEWPORT_MAX_SIDE = 7680;
/**
 * The side a viewport request leaves out: Playwright's default page size. A request without any
 * viewport keeps the provider's own default instead.
 */
export const DEFAULT_VIEWPORT_WIDTH = 1280;
export const DEFAULT_VIEWPORT_HEIGHT = 720;

/** Records the env-var rules at `path` (shared by session `env` and agent `envVars`). */
export function checkEnv(checks: Checks, env: Record<string, string>, path: string): Checks {
  const keys = Object.keys(env);
  checks.require(keys.length <= ENV_MAX_KEYS, path, `must have at most ${ENV_MAX_KEYS} keys`);
  for (const key of keys) {
    checks.require(ENV_KEY_PATTERN.test(key), `${path}.${key}`, `key must match ${ENV_KEY_PATTERN.source}`);
    const value = env[key];
    checks.require(
      typeof value === 'string' && utf8Length(value) <= ENV_VALUE_MAX_BYTES,
      `${path}.${key}`,
      `must be a string of at most ${ENV_VALUE_MAX_BYTES} bytes`,
    );
    if (typeof value === 'string') checks.text(value, `${path}.${key}`, 'opaque');
  }
  return checks;
}

/** Records the character rule of the provider ids (`name`: no control characters) where they are set. */
export function checkProviderIds(
  checks: Checks,
  ids: { providerProjectId: string | null; contextId: string | null; extensionId: string | null },
  providerProjectIdPath = 'providerProjectId',
): Checks {
  for (const [path, value] of [
    [providerProjectIdPath, ids.providerProjectId],
    ['contextId', ids.contextId],
    ['extensionId', ids.extensionId],
  ] as const) {
    if (value !== null) checks.text(value, path, 'name');
  }
  return checks;
}

/** Records the script, timeout and region rules shared by sessions and agents. */
export function checkRunSettings(
  checks: Checks,
  settings: { script: string; timeoutSec: number; region: string },
  regions: readonly string[],
): Checks {
  return checkScript(checks, settings.script)
    .integerIn(settings.timeoutSec, 'timeoutSec', TIMEOUT_MIN_SEC, TIMEOUT_MAX_SEC)
    .require(regions.includes(settings.region), 'region', `must be one of ${regions.join(', ')}`);
}

/** Records the rules of a script: at most `SCRIPT_MAX_BYTES`, the opaque-text character rule. */
export function checkScript(checks: Checks, script: string): Checks {
  return checks
    .require(utf8Length(script) <= SCRIPT_MAX_BYTES, 'script', `must be at most ${SCRIPT_MAX_BYTES} bytes`)
    .text(script, 'script', 'opaque');
}

/** Records the viewport rule at `path`: each side an integer from `VIEWPORT_MIN_SIDE` to `VIEWPORT_MAX_SIDE`. */
export function checkViewport(
  checks: Checks,
  viewport: { width: number; height: number } | null,
  path: string,
): Checks {
  if (viewport === null) return checks;
  for (const side of ['width', 'height'] as const)
    checks.integerIn(viewport[side], `${path}.${side}`, VIEWPORT_MIN_SIDE, VIEWPORT_MAX_SIDE);
  return checks;
}
