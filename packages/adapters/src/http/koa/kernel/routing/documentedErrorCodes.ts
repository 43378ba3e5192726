import type { ProblemCode } from '../errors/problemCodes.ts';
import { fileBodySpec } from './fileBody.ts';
import type { AnyRoute } from './RouteDefinition.ts';

/**
 * The codes the kernel may answer on any route, whatever it declares: the request cut-off
 * (`requestTimeout`) and an unexpected failure (`errorHandler`). Every route documents them.
 */
export const EVERY_ROUTE_ERRORS = ['request_timeout', 'internal'] as const satisfies readonly ProblemCode[];

/** What a route with path parameters, a query, headers or a body answers when they do not validate. */
export const INPUT_ERRORS = ['validation_failed'] as const satisfies readonly ProblemCode[];

/** What reading a JSON body answers (`parseJsonBody`): not JSON, too large, not `application/json`. */
export const JSON_BODY_ERRORS = [
  'malformed_json',
  'payload_too_large',
  'unsupported_media_type',
] as const satisfies readonly ProblemCode[];

/** What reading an uploaded file answers (`readMultipartFile`): too large, not `multipart/form-data`. */
export const FILE_BODY_ERRORS = [
  'payload_too_large',
  'unsupported_media_type',
] as const satisfies readonly ProblemCode[];

/**
 * What a route that takes credentials answers for a missing or bad one, for a key refused (its
 * project archived, another project's route, a user-only route), and when the credential cannot be
 * checked: keys are looked up in the database, a user's token may need the identity provider.
 */
export const AUTH_ERRORS = [
  'unauthorized',
  'forbidden_for_api_key',
  // A disabled account's access token (SPEC §17).
  'account_disabled',
  'identity_unavailable',
  'database_unavailable',
] as const satisfies readonly ProblemCode[];

/**
 * What a route in one project answers for a member whose role is below its least `role`, and in a
 * project whose owner's account an operator disabled (SPEC §17).
 */
export const ROLE_ERRORS = [
  'forbidden_for_role',
  'account_disabled',
] as const satisfies readonly ProblemCode[];

/**
 * Every code a route documents (its OpenAPI error responses) and may answer (checked in tests, see
 * `errorContractBreach`): its own `errors`, plus those its input, body and auth imply and
 * `EVERY_ROUTE_ERRORS`.
 */
export function documentedErrorCodes(route: AnyRoute): ProblemCode[] {
  const codes = new Set<ProblemCode>();
  if (route.params || route.query || route.headers || route.body) for (const c of INPUT_ERRORS) codes.add(c);
  if (fileBodySpec(route.body)) for (const c of FILE_BODY_ERRORS) codes.add(c);
  else if (route.body) for (const c of JSON_BODY_ERRORS) codes.add(c);
  if (route.auth !== 'none') for (const c of AUTH_ERRORS) codes.add(c);
  if (route.role) for (const c of ROLE_ERRORS) codes.add(c);
  for (const code of route.errors ?? []) codes.add(code);
  for (const code of EVERY_ROUTE_ERRORS) codes.add(code);
  return [...codes];
}
