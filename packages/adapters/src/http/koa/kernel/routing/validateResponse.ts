import { ResponseContractError } from '../errors/ResponseContractError.ts';
import type { AnyRouteResult, HttpRoute } from './RouteDefinition.ts';

/**
 * Checks a handler's answer against its route's contract (`HttpSettings.validateResponses`, on in
 * tests): the status must be one the route declares, and a JSON body must parse with that status's
 * schema and carry no field the schema does not declare (the document would not show it). Throws a
 * `ResponseContractError` naming the route, status and fields otherwise: the error handler logs it
 * and answers 500, so a presenter drifting from its schema fails the test that reached it.
 */
export function validateResponse(route: HttpRoute, result: AnyRouteResult): void {
  const where = `${route.operationId} (${route.method} ${route.path}) answered ${result.status}`;
  const spec = route.responses[result.status];
  if (!spec) throw new ResponseContractError(`Response contract: ${where}, a status it does not declare.`);
  if (!spec.schema || result.contentType) return;
  const parsed = spec.schema.safeParse(result.body);
  const issues = parsed.success
    ? undeclaredFields(result.body, parsed.data).map((path) => `${path}: not in the schema`)
    : parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(body)'}: ${issue.message}`);
  if (issues.length === 0) return;
  throw new ResponseContractError(
    `Response contract: ${where} with a body its schema refuses: ${issues.slice(0, 5).join('; ')}.`,
  );
}

/** The paths of `sent`'s fields that parsing dropped (an object schema strips fields it does not know). */
function undeclaredFields(sent: unknown, parsed: unknown, path = ''): string[] {
  if (Array.isArray(sent) && Array.isArray(parsed)) {
    return sent.flatMap((item, index) =>
      undeclaredFields(item, parsed[index], `${path}${path ? '.' : ''}${index}`),
    );
  }
  if (!isPlainObject(sent) || !isPlainObject(parsed)) return [];
  return Object.entries(sent).flatMap(([key, value]) => {
    const at = path ? `${path}.${key}` : key;
    if (value === undefined) return [];
    return key in parsed ? undeclaredFields(value, parsed[key], at) : [at];
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}
