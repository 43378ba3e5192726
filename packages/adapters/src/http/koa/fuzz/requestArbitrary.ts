import fc from 'fast-check';
import { writeBrowserbaseError } from '../browserbase/writeBrowserbaseError.ts';
import type { AnyRoute } from '../kernel/routing/RouteDefinition.ts';
import { bodyArbitrary, type FuzzBody } from './bodyArbitrary.ts';
import {
  type FieldHints,
  hostileString,
  type JsonSchema,
  protoKey,
  schemaOf,
  validValue,
} from './schemaArbitraries.ts';

/**
 * One generated request. Strings may hold placeholders (`$TOKEN$`, `$PROJECT_ID$`, …) that the fuzz
 * world replaces with its current fixture values when sending, so a fixture re-created after a
 * successful DELETE is picked up by requests generated earlier (and by shrinking).
 */
export interface FuzzRequest {
  method: string;
  path: string;
  query: Array<[string, string]>;
  headers: Array<[string, string]>;
  body: FuzzBody;
}

/** What the generators need to know about the app under test. */
export interface FuzzContext {
  providerName: string;
  regions: readonly string[];
  email: string;
  password: string;
}

/** Characters a header value may carry through fetch (no control characters, DEL included). */
const headerString = (maxLength: number) =>
  fc
    .string({
      unit: fc
        .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }))
        .map((c) => String.fromCharCode(c)),
      minLength: 1,
      maxLength,
    })
    .filter((s) => s.trim() === s && s.length > 0);

/** Hostile strings that still fit in a URL or header (Node refuses request heads over 16 KiB). */
const shortHostile = hostileString.filter((s) => !/^\$HUGE_(70000|300000)\$$/.test(s));

/** Percent-encodes any string, also one with lone surrogates (sent as the UTF-8 of U+FFFD). */
export function percentEncode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...Buffer.from(value, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  }
}

/** A path segment: mostly the fixture's own resources, sometimes someone else's, an unknown or garbage. */
function pathParam(name: string, ctx: FuzzContext): fc.Arbitrary<string> {
  const garbage = fc.oneof(
    { arbitrary: shortHostile.map(percentEncode), weight: 4 },
    { arbitrary: fc.constantFrom('%ff', '%', '%E0%A4%A', '%ED%A0%80', '%C0%AF', '%2F..%2F'), weight: 1 },
  );
  const ids = (fixture: string[]) =>
    fc.oneof(
      { arbitrary: fc.constantFrom(...fixture), weight: 8 },
      { arbitrary: fc.uuid(), weight: 1 },
      { arbitrary: fc.constantFrom('dashboard', '..', '%2e%2e', 'null', '%00', '0', '%ff'), weight: 1 },
      { arbitrary: garbage, weight: 2 },
    );
  switch (name) {
    case 'provider':
      return fc.oneof(
        {
          arbitrary: fc.constantFrom(ctx.providerName, 'cloudbrowser', ctx.providerName.toUpperCase()),
          weight: 8,
        },
        { arbitrary: fc.constantFrom('local', 'other', '__proto__', 'constructor'), weight: 1 },
        { arbitrary: garbage, weight: 1 },
      );
    case 'project_id':
      return ids(['$PROJECT_ID$', '$PROJECT_ID$', '$PROJECT_ID_UPPER$', '$OTHER_PROJECT_ID$']);
    case 'session_id':
      return ids(['$SESSION_ID$', '$SESSION_ID$', '$OTHER_SESSION_ID$']);
    case 'agent_id':
      return ids(['$AGENT_ID$', '$AGENT_ID$', '$OTHER_AGENT_ID$']);
    case 'id':
      // The Browserbase-compatible routes' one id: a session, a project or a context.
      return ids(['$SESSION_ID$', '$SESSION_ID$', '$OTHER_SESSION_ID$', '$PROJECT_ID$', 'ctx-unknown']);
    default:
      return ids(['$PROJECT_ID$']);
  }
}

function pathArbitrary(route: AnyRoute, ctx: FuzzContext): fc.Arbitrary<string> {
  const parts = route.path.split(/(\{[^}]+\})/);
  return fc
    .tuple(
      ...parts.map((part) => {
        const name = /^\{([^}]+)\}$/.exec(part)?.[1];
        return name ? pathParam(name, ctx) : fc.constant(part);
      }),
    )
    .map((segments) => segments.join(''));
}

/** Declared query parameters with valid, hostile or repeated values, plus unknown ones. */
function queryArbitrary(route: AnyRoute, hints: FieldHints): fc.Arbitrary<Array<[string, string]>> {
  const properties = route.query ? Object.entries(schemaOf(route.query).properties ?? {}) : [];
  const value = (schema: JsonSchema) =>
    fc.oneof(
      { arbitrary: validValue(schema, hints).map(String), weight: 4 },
      { arbitrary: shortHostile, weight: 2 },
      {
        arbitrary: fc.constantFrom('', '1.5', '1e2', '0x10', ' 1', 'TRUE', '-1', '99999999999999999999'),
        weight: 1,
      },
    );
  const declared = properties.map(([key, schema]) =>
    fc.option(
      fc
        .array(value(schema), { minLength: 1, maxLength: 2 })
        .map((vs) => vs.map((v) => [key, v] as [string, string])),
      {
        nil: [],
        freq: 2,
      },
    ),
  );
  const unknown = fc.array(
    fc.tuple(
      fc.oneof(
        protoKey,
        fc.constantFrom('constructor[prototype][polluted]', '__proto__[polluted]', 'a[b]'),
        fc.string({ maxLength: 10 }),
      ),
      shortHostile,
    ),
    { maxLength: 2 },
  );
  return fc.tuple(fc.tuple(...declared), unknown).map(([lists, extra]) => [...lists.flat(), ...extra]);
}

/** Authorization (mostly the fixture's valid token on protected routes), request id and declared headers. */
function headersArbitrary(route: AnyRoute, hints: FieldHints): fc.Arbitrary<Array<[string, string]>> {
  if (route.writeError === writeBrowserbaseError) return browserbaseHeadersArbitrary();
  const bearer = fc.oneof(
    { arbitrary: fc.constant('Bearer $TOKEN$'), weight: route.auth !== 'none' ? 12 : 1 },
    { arbitrary: fc.constant(null), weight: route.auth !== 'none' ? 1 : 8 },
    {
      arbitrary: fc.constantFrom(
        'Bearer ',
        'Bearer garbage',
        'Basic dXNlcjpwYXNz',
        'bearer $TOKEN$',
        'Bearer $TOKEN$ extra',
        'Bearer $OTHER_TOKEN$',
        'Bearer __proto__',
      ),
      weight: 1,
    },
  );
  const requestId = fc.option(fc.oneof(fc.uuid(), headerString(300)), { freq: 4 });
  const declared = route.headers
    ? Object.entries(schemaOf(route.headers).properties ?? {}).map(([name, schema]) =>
        fc.option(
          fc
            .oneof(validValue(schema, hints).map(String), headerString(300))
            .map((v) => [name, v] as [string, string]),
          { freq: 2 },
        ),
      )
    : [];
  return fc.tuple(bearer, requestId, fc.tuple(...declared)).map(([auth, id, extra]) => {
    const headers: Array<[string, string]> = [];
    if (auth !== null) headers.push(['Authorization', auth]);
    if (id !== null) headers.push(['X-Request-Id', id]);
    for (const header of extra) if (header !== null) headers.push(header);
    return headers;
  });
}

/** The credentials a Browserbase client sends: mostly the fixture's project API key in X-BB-API-Key. */
function browserbaseHeadersArbitrary(): fc.Arbitrary<Array<[string, string]>> {
  return fc.oneof(
    { arbitrary: fc.constant([['X-BB-API-Key', '$API_KEY$']] as Array<[string, string]>), weight: 12 },
    { arbitrary: fc.constant([] as Array<[string, string]>), weight: 1 },
    {
      arbitrary: fc.constantFrom<Array<[string, string]>>(
        [['X-BB-API-Key', '$OTHER_API_KEY$']],
        [['X-BB-API-Key', '$TOKEN$']],
        [['X-BB-API-Key', 'bdk_garbage']],
        [['Authorization', 'Bearer $TOKEN$']],
        [['Authorization', 'Bearer $API_KEY$']],
      ),
      weight: 2,
    },
  );
}

/**
 * Requests for one route of the table, derived from its zod schemas: valid, near-valid and hostile
 * path ids, query strings, headers and bodies.
 */
export function requestArbitrary(route: AnyRoute, ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const hints: FieldHints = {
    region: [...ctx.regions, 'local', 'mars-north-1'],
    agentId: ['$AGENT_ID$', '$OTHER_AGENT_ID$'],
    email: [ctx.email, `  ${ctx.email.toUpperCase()} `, 'new-user@example.com'],
    password: [ctx.password],
    refresh_token: ['$REFRESH$'],
    status: ['RUNNING', 'COMPLETED'],
  };
  // Now and then another method on the route's path: 405 with Allow, 204 for OPTIONS, or a sibling route.
  const method = fc.oneof(
    { arbitrary: fc.constant(route.method), weight: 15 },
    { arbitrary: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'), weight: 1 },
  );
  return fc.record({
    method,
    path: pathArbitrary(route, ctx),
    query: queryArbitrary(route, hints),
    headers: headersArbitrary(route, hints),
    body: bodyArbitrary(route, hints),
  });
}
