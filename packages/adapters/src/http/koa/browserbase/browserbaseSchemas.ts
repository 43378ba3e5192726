import {
  jsonByteLength,
  RUN_INPUT_MAX_BYTES,
  RUN_TIMEOUT_MAX_SEC,
  RUN_TIMEOUT_MIN_SEC,
  SESSION_STATUSES,
} from '@browserdeck/domain';
import { z } from 'zod';
import { jsonTextRule } from '../api/shared/commonSchemas.ts';
import { providerRefField, regionField, timeoutSecField } from '../api/shared/runSettingsSchemas.ts';
import { sessionProxiesField } from '../api/shared/sessionProxiesField.ts';
import {
  keepAliveField,
  metadataQueryParam,
  sessionMetadataField,
  viewportSide,
} from '../api/shared/sessionSettingsSchemas.ts';

/** Why an option is refused: Browserdeck would otherwise drop it silently, which the contract forbids. */
const CANNOT = 'Browserdeck cannot honour this option';

/** An option refused whatever its value. */
const refused = (why: string) => z.unknown().refine(() => false, { message: `${CANNOT}: ${why}` });

/** A boolean option refused when `true` (Browserbase's default for some is true: absent is fine). */
const refusedWhenTrue = (why: string) =>
  z.boolean('must be a boolean').refine((value) => value === false, { message: `${CANNOT}: ${why}` });

/** A boolean option refused when `false`. */
const refusedWhenFalse = (why: string) =>
  z.boolean('must be a boolean').refine((value) => value === true, { message: `${CANNOT}: ${why}` });

/** `browserSettings` of Browserbase's session create: what Browserdeck does, and what it refuses by name. */
const BrowserSettings = z.strictObject({
  context: z
    .strictObject({ id: providerRefField, persist: z.boolean('must be a boolean').optional() })
    .optional(),
  extensionId: providerRefField.optional(),
  viewport: z
    .strictObject({ width: viewportSide().optional(), height: viewportSide().optional() })
    .optional(),
  blockAds: refusedWhenTrue('there is no ad blocker.').optional(),
  solveCaptchas: refusedWhenTrue('there is no CAPTCHA solver; set it to false.').optional(),
  recordSession: z.boolean('must be a boolean').optional(),
  logSession: refusedWhenFalse('CDP events are always logged for the logs endpoint.').optional(),
  advancedStealth: refusedWhenTrue('there is no stealth mode.').optional(),
  verified: refusedWhenTrue('there is no verified browser mode.').optional(),
  ignoreCertificateErrors: refusedWhenTrue('certificate errors are never ignored.').optional(),
  os: refused('the browser runs on this server’s operating system.').optional(),
  fingerprint: refused('there are no fingerprint settings.').optional(),
  allowedDomains: refused('use the server’s egress settings (EGRESS_ALLOW, EGRESS_DENY).').optional(),
  captchaImageSelector: refused('there is no CAPTCHA solver.').optional(),
  captchaInputSelector: refused('there is no CAPTCHA solver.').optional(),
});

/** `POST /v1/sessions` (Browserbase's `SessionCreateParams`; the SDK's `api_timeout` arrives as `timeout`). */
export const BrowserbaseCreateSessionBody = z
  .strictObject({
    projectId: z.string('must be a string').optional(),
    extensionId: providerRefField.optional(),
    keepAlive: keepAliveField.optional(),
    region: regionField.optional(),
    timeout: timeoutSecField.optional(),
    userMetadata: sessionMetadataField.optional(),
    proxies: z
      .union([z.boolean(), sessionProxiesField], 'must be a boolean or an array of proxies')
      .optional()
      .meta({
        description:
          'true: the provider’s own proxies (Browserbase only; the local provider refuses it); false: none; or an array of proxies (external, none, browserbase).',
      }),
    proxySettings: z
      .strictObject({
        caCertificates: z
          .array(z.string('must be a string'), 'must be an array')
          .refine((ids) => ids.length === 0, {
            message: `${CANNOT}: there are no stored CA certificates to trust; leave caCertificates out.`,
          })
          .optional(),
      })
      .optional(),
    browserSettings: BrowserSettings.optional(),
  })
  .optional()
  .transform((body) => body ?? {});

/** `GET /v1/sessions?status=&q=` */
export const BrowserbaseListSessionsQuery = z.object({
  status: z.enum(SESSION_STATUSES, `must be one of ${SESSION_STATUSES.join(', ')}`).optional(),
  q: metadataQueryParam.optional(),
});

/** `POST /v1/sessions/{id}`: only a release request (Stagehand also sends the project id). */
export const BrowserbaseUpdateSessionBody = z.strictObject({
  status: z.literal('REQUEST_RELEASE', 'must be "REQUEST_RELEASE"'),
  projectId: z.string('must be a string').optional(),
});

/** `POST /v1/contexts` */
export const BrowserbaseCreateContextBody = z
  .strictObject({
    projectId: z.string('must be a string').optional(),
    name: refused('contexts have no names; keep the returned id.').optional(),
  })
  .optional()
  .transform((body) => body ?? {});

/** An id in a Browserbase path: any string; one that names nothing is a 404, as Browserbase answers. */
export const browserbaseIdParams = z.object({ id: z.string() });

/** A session option of an invocation: its session takes the function's (the agent's) settings. */
const agentSetting = () =>
  refused('an invocation’s session takes its function’s settings; change them on the agent.').optional();

const invokeTimeout = `must be an integer from ${RUN_TIMEOUT_MIN_SEC} to ${RUN_TIMEOUT_MAX_SEC}`;

/** `POST /v1/functions/{id}/invoke`: `params` becomes the run's `input`, `timeout` its `timeoutSec`. */
export const BrowserbaseInvokeBody = z
  .strictObject({
    params: z
      .record(z.string(), z.unknown(), 'must be a JSON object')
      .refine((value) => jsonByteLength(value) <= RUN_INPUT_MAX_BYTES, {
        message: `must be at most ${RUN_INPUT_MAX_BYTES} bytes as JSON`,
      })
      .check(jsonTextRule)
      .optional(),
    sessionCreateParams: z
      .strictObject({
        timeout: z
          .int(invokeTimeout)
          .min(RUN_TIMEOUT_MIN_SEC, invokeTimeout)
          .max(RUN_TIMEOUT_MAX_SEC, invokeTimeout)
          .optional(),
        projectId: z.string('must be a string').optional(),
        region: agentSetting(),
        extensionId: agentSetting(),
        browserSettings: agentSetting(),
        keepAlive: agentSetting(),
        userMetadata: agentSetting(),
        proxies: agentSetting(),
        proxySettings: agentSetting(),
      })
      .optional(),
  })
  .optional()
  .transform((body) => body ?? {});
