import type { ProblemCode } from '../errors/problemCodes.ts';
import { ResponseContractError } from '../errors/ResponseContractError.ts';
import { documentedErrorCodes } from './documentedErrorCodes.ts';
import type { AnyRoute } from './RouteDefinition.ts';

const DOCUMENTED = new WeakMap<AnyRoute, ReadonlySet<ProblemCode>>();

/**
 * The error-side twin of `validateResponse` (`HttpSettings.validateResponses`, on in tests): a
 * `ResponseContractError` naming the route and the code when the route answered a code it does not
 * document (`documentedErrorCodes`, which its OpenAPI error responses list too), else `undefined`.
 * The error handler then answers 500 with this message instead, so the test that reached the code
 * fails until the route lists it in `errors`.
 */
export function errorContractBreach(route: AnyRoute, code: ProblemCode): ResponseContractError | undefined {
  let documented = DOCUMENTED.get(route);
  if (!documented) {
    documented = new Set(documentedErrorCodes(route));
    DOCUMENTED.set(route, documented);
  }
  if (documented.has(code)) return undefined;
  return new ResponseContractError(
    `Error contract: ${route.operationId} (${route.method} ${route.path}) answered ${code}, ` +
      "a code it does not document: add it to the route's errors.",
  );
}
