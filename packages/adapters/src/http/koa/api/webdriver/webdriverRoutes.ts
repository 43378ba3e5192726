import { z } from 'zod';
import type { PassthroughEndpoint } from '../../../../shared/PassthroughEndpoint.ts';
import type { PassthroughRoute } from '../../kernel/routing/RouteDefinition.ts';
import { writeWebDriverError } from './writeWebDriverError.ts';

/** The tag of the WebDriver endpoints in the document. */
export const WEBDRIVER_TAG = {
  name: 'WebDriver',
  description:
    'A session’s `seleniumRemoteUrl`: a W3C WebDriver server bound to that one session, for Selenium ' +
    'and any other WebDriver client (docs/http-api.md §7).',
};

/** The documented path parameters below an endpoint's base. */
const COMMAND_PARAMS = z.object({
  provider_session_id: z.string().describe('The session’s `providerSessionId`.'),
  signing_key: z.string().describe('The session’s signing key (the one in its `connectUrl`).'),
  session_id: z
    .string()
    .describe('The session’s WebDriver session id, its `providerSessionId` or its Browserdeck id.'),
  command: z
    .string()
    .describe('The WebDriver command’s path below the session (`url`, `element/{element_id}/click`, …).'),
});

/** A successful WebDriver answer. */
const WEBDRIVER_VALUE = z.object({ value: z.unknown() }).meta({ id: 'WebDriverValue' });

/**
 * The provider's WebDriver endpoints as passthrough routes of the table, each documented as one
 * operation (`POST {base}/session/{session_id}/{command}`, standing for every WebDriver command),
 * with WebDriver's own error shape (`writeWebDriverError`).
 */
export function webdriverRoutes(endpoints: readonly PassthroughEndpoint[]): PassthroughRoute[] {
  return endpoints.map((endpoint) => ({
    method: 'POST',
    path: `${endpoint.path}/session/{session_id}/{command}`,
    basePath: endpoint.path,
    secretParams: endpoint.secretParams ?? [],
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    description: endpoint.description,
    tag: WEBDRIVER_TAG.name,
    auth: 'none',
    params: COMMAND_PARAMS,
    responses: {
      200: {
        description:
          'The WebDriver server’s answer, as it gave it. Its errors are WebDriver errors ' +
          '(`{ value: { error, message, stacktrace } }`) with WebDriver’s statuses.',
        schema: WEBDRIVER_VALUE,
      },
    },
    errors: ['not_found', 'unauthorized', 'session_ended'],
    writeError: writeWebDriverError,
    passthrough: (request) => endpoint.serve(request),
  }));
}
