import type { ProblemCode } from './problemCodes.ts';

/** How one error code is answered over HTTP. */
export interface ErrorStatus {
  status: number;
  title: string;
}

/**
 * Every error code, the domain's and the transport's (`PROBLEM_CODES`), mapped to its HTTP status and
 * problem title (http-api.md §2). The `Record` type makes this table exhaustive: adding a code to the
 * domain's `ERROR_CODES` or to `HTTP_ERROR_CODES` without a row here fails typecheck.
 */
export const ERROR_STATUS: Record<ProblemCode, ErrorStatus> = {
  validation_failed: { status: 400, title: 'Validation failed' },
  malformed_json: { status: 400, title: 'Malformed JSON' },
  unsupported_option: { status: 400, title: 'Unsupported option' },
  extension_invalid: { status: 400, title: 'Invalid extension' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  invalid_credentials: { status: 401, title: 'Invalid credentials' },
  invalid_refresh_token: { status: 401, title: 'Invalid refresh token' },
  forbidden_for_api_key: { status: 403, title: 'Forbidden for an API key' },
  forbidden_for_role: { status: 403, title: 'Forbidden for this role' },
  operator_only: { status: 403, title: 'Operators only' },
  account_disabled: { status: 403, title: 'Account disabled' },
  signup_closed: { status: 403, title: 'Sign-up closed' },
  invitation_email_mismatch: { status: 403, title: 'Invitation for another e-mail' },
  not_found: { status: 404, title: 'Not found' },
  agent_not_found: { status: 404, title: 'Agent not found' },
  extension_not_found: { status: 404, title: 'Extension not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  email_taken: { status: 409, title: 'E-mail already registered' },
  slug_taken: { status: 409, title: 'Slug already taken' },
  agent_name_taken: { status: 409, title: 'Agent name already taken' },
  already_member: { status: 409, title: 'Already a member' },
  member_limit_reached: { status: 409, title: 'Too many members' },
  owner_must_transfer: { status: 409, title: 'Owner changes by transfer' },
  last_operator: { status: 409, title: 'Last operator' },
  project_archived: { status: 409, title: 'Project archived' },
  agent_inactive: { status: 409, title: 'Agent inactive' },
  script_empty: { status: 409, title: 'Script empty' },
  idempotency_key_reused: { status: 409, title: 'Idempotency key reused' },
  context_in_use: { status: 409, title: 'Context in use' },
  project_limit_reached: { status: 409, title: 'Too many projects' },
  context_limit_reached: { status: 409, title: 'Too many contexts' },
  extension_limit_reached: { status: 409, title: 'Too many extensions' },
  upload_limit_reached: { status: 409, title: 'Too many uploads' },
  session_ended: { status: 409, title: 'Session ended' },
  session_active: { status: 409, title: 'Session active' },
  recording_processing: { status: 409, title: 'Recording processing' },
  not_recorded: { status: 422, title: 'Not recorded' },
  recording_expired: { status: 410, title: 'Recording expired' },
  session_on_other_instance: { status: 503, title: 'Session on another instance' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  rate_limited: { status: 429, title: 'Too many requests' },
  run_queue_full: { status: 429, title: 'Too many queued runs' },
  provider_rate_limited: { status: 429, title: 'Provider rate limit' },
  provider_error: { status: 502, title: 'Provider error' },
  provider_unavailable: { status: 503, title: 'Provider unavailable' },
  provider_timeout: { status: 504, title: 'Provider timeout' },
  identity_unavailable: { status: 503, title: 'Identity provider unavailable' },
  database_unavailable: { status: 503, title: 'Database unavailable' },
  request_timeout: { status: 503, title: 'Request timeout' },
  console_unavailable: { status: 503, title: 'Console unavailable' },
  not_implemented: { status: 501, title: 'Not implemented' },
  internal: { status: 500, title: 'Internal error' },
};

/**
 * The `type` URI of a problem: the error's entry in the `/docs` reference page of an app mounted
 * under `mountPrefix` (`''` at the root; see `mountPrefix(ctx)`).
 */
export function problemType(code: ProblemCode, mountPrefix = ''): string {
  return `${mountPrefix}/docs#error-${code}`;
}
