import { ROLE_RIGHTS } from '@browserdeck/domain';
import { z } from 'zod';
import { ERROR_STATUS } from '../errors/errorStatus.ts';
import { ProblemSchema } from '../errors/ProblemSchema.ts';
import type { ProblemCode } from '../errors/problemCodes.ts';
import { documentedErrorCodes } from '../routing/documentedErrorCodes.ts';
import { fileBodySpec } from '../routing/fileBody.ts';
import type { AnyRoute, RouteAuth } from '../routing/RouteDefinition.ts';
import { inlineDefs } from './inlineDefs.ts';
import type { JsonObject, OpenApiDocument, OpenApiOperation } from './OpenApiDocument.ts';
import { type ResponseJsonSchemas, responseJsonSchemas, schemaRef } from './responseJsonSchemas.ts';

/**
 * The JSON Schema (2020-12, as OpenAPI 3.1 uses) of a zod schema, written out in full (no `$ref`,
 * also where it holds a named schema), without `$schema`. Responses use `input` too: their schemas
 * have no transforms, and it leaves objects open to fields added later (`output` would close them
 * with `additionalProperties: false`).
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonObject {
  const converted = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonObject;
  const { $schema: _ignored, $defs, ...rest } = converted;
  // A named schema (`.meta({ id })`) inside comes back as a `$ref` into `$defs`: write it out here.
  return $defs ? inlineDefs(rest, $defs as Record<string, JsonObject>) : rest;
}

/** The answer Node's HTTP server gives any request whose headers are too large, before the app sees it. */
const HEADERS_TOO_LARGE: JsonObject = {
  description:
    'Request headers over the limit of Node’s HTTP server (`maxHeaderSize`, 16 KiB by default): ' +
    'Node answers before the app sees the request, with no body, and closes the connection.',
};

/**
 * The credentials (http-api.md §3, §12): a user's access token as a bearer token, and a project API
 * key, which operations that accept one list as `apiKey`; those take the key as a bearer token too.
 */
const SECURITY_SCHEMES: Record<string, JsonObject> = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'A user’s access token. On operations that also list `apiKey`, a project API key (`bdk_…`) is ' +
      'accepted here as well.',
  },
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-BB-API-Key',
    description: 'A project API key (`bdk_…`); it acts for its own project only.',
  },
};

/** Each operation's `security`, from its route's declared `auth` (the same the router enforces). */
const SECURITY: Readonly<Record<RouteAuth, Array<Record<string, string[]>>>> = {
  none: [],
  user: [{ bearerAuth: [] }],
  userOrKey: [{ bearerAuth: [] }, { apiKey: [] }],
  key: [{ apiKey: [] }],
  // The calls between instances are never in the document (their routes are undocumented).
  instance: [],
};

/**
 * The OpenAPI 3.1 document of a route table, generated from the same zod schemas that validate the
 * requests, so the numbers in the document are the numbers the server enforces. Request bodies and
 * parameters are written out in each operation; the resources the API answers are named
 * `components/schemas`, under the names their features give them (`.meta({ id })`, see
 * `responseJsonSchemas`), and every error refers to `Problem`. `tags` describe the routes' tags (a
 * tag not listed is documented without a description, which the OpenAPI lint reports). Its one server is `serverUrl`
 * (default `/`), a URL relative to where the document is served; `withMountPrefix` sets it for an
 * app under a prefix.
 */
export function buildOpenApiDocument(
  table: readonly AnyRoute[],
  options: { serverUrl?: string; tags?: readonly { name: string; description: string }[] } = {},
): OpenApiDocument {
  const routes = table.filter((route) => !route.undocumented);
  const responseSchemas = routes.flatMap((route) =>
    Object.values(route.responses).flatMap((spec) => (spec.schema ? [spec.schema] : [])),
  );
  const schemas = responseJsonSchemas([ProblemSchema, ...responseSchemas]);
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    (paths[route.path] as Record<string, OpenApiOperation>)[route.method.toLowerCase()] = operationOf(
      route,
      schemas,
    );
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Browserdeck API',
      version: '1',
      description: 'Projects, cloud-browser sessions and agents behind one HTTP JSON API.',
      contact: { name: 'Browserdeck' },
      license: { name: 'Apache License 2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: options.serverUrl ?? '/', description: 'Where this document is served.' }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => {
      const description = options.tags?.find((tag) => tag.name === name)?.description;
      return description ? { name, description } : { name };
    }),
    paths,
    components: {
      schemas: referencedSchemas(paths, schemas.components),
      responses: { HeadersTooLarge: HEADERS_TOO_LARGE },
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

/**
 * The named schemas the operations refer to, directly or through one another, in the order a reader
 * meets them: by first reference in the paths, each followed by the ones it refers to in turn.
 */
function referencedSchemas(
  paths: OpenApiDocument['paths'],
  components: Record<string, JsonObject>,
): Record<string, JsonObject> {
  const prefix = schemaRef('').$ref as string;
  const refsIn = (value: unknown): string[] =>
    [...JSON.stringify(value).matchAll(/"\$ref":"([^"]+)"/g)]
      .map((match) => match[1] as string)
      .filter((ref) => ref.startsWith(prefix))
      .map((ref) => ref.slice(prefix.length));
  const reached: Record<string, JsonObject> = {};
  const reach = (name: string): void => {
    const component = components[name];
    if (name in reached || !component) return;
    reached[name] = component;
    for (const ref of refsIn(component)) reach(ref);
  };
  for (const ref of refsIn(paths)) reach(ref);
  return reached;
}

function operationOf(route: AnyRoute, schemas: ResponseJsonSchemas): OpenApiOperation {
  const operation: OpenApiOperation = {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    security: SECURITY[route.auth].map((requirement) => ({ ...requirement })),
    parameters: [
      ...(route.params ? parametersOf(route.params, 'path', route.pathValues) : []),
      ...(route.query ? parametersOf(route.query, 'query') : []),
      ...(route.headers ? parametersOf(route.headers, 'header') : []),
    ],
    responses: {
      ...successResponses(route, schemas),
      ...errorResponses(documentedErrorCodes(route), schemas.of(ProblemSchema)),
      431: { $ref: '#/components/responses/HeadersTooLarge' },
    },
  };
  if (route.description) operation.description = route.description;
  if (route.role) {
    operation['x-browserdeck-role'] = route.role;
    const least = `Least role: \`${route.role}\` (${ROLE_RIGHTS[route.role]}); a lower role is 403 \`forbidden_for_role\`.`;
    operation.description = operation.description ? `${operation.description}\n\n${least}` : least;
  }
  const file = fileBodySpec(route.body);
  if (file) {
    operation.requestBody = {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: [file.field],
            properties: {
              [file.field]: {
                type: 'string',
                contentMediaType: 'application/octet-stream',
                description: `${file.description} At most ${file.maxBytes} bytes.`,
              },
            },
          },
        },
      },
    };
  } else if (route.body) {
    operation.requestBody = {
      required: !route.body.safeParse(undefined).success,
      content: { 'application/json': { schema: jsonSchemaOf(route.body, 'input') } },
    };
  }
  return operation;
}

function parametersOf(
  schema: z.ZodType,
  location: 'path' | 'query' | 'header',
  values: AnyRoute['pathValues'] = {},
): JsonObject[] {
  const json = jsonSchemaOf(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonObject>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const fixed = values[name];
    const parameter: JsonObject = {
      name,
      in: location,
      required: location === 'path' || required.has(name),
      schema: fixed ? { ...property, enum: [...new Set(fixed)] } : property,
    };
    if (typeof property.description === 'string') parameter.description = property.description;
    return parameter;
  });
}

function successResponses(route: AnyRoute, schemas: ResponseJsonSchemas): Record<string, JsonObject> {
  const responses: Record<string, JsonObject> = {};
  for (const [status, spec] of Object.entries(route.responses)) {
    const response: JsonObject = { description: spec.description };
    if (spec.headers) {
      response.headers = Object.fromEntries(
        Object.entries(spec.headers).map(([name, header]) => [
          name,
          { description: header.description, schema: { type: 'string' } },
        ]),
      );
    }
    if (spec.schema || spec.contentType) {
      const schema = spec.schema ? schemas.of(spec.schema) : {};
      response.content = { [spec.contentType ?? 'application/json']: { schema } };
    }
    responses[status] = response;
  }
  return responses;
}

function errorResponses(codes: readonly ProblemCode[], problem: JsonObject): Record<string, JsonObject> {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of codes) {
    const { status } = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, JsonObject> = {};
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: `Problem: ${statusCodes.map((c) => `\`${c}\``).join(', ')}.`,
      'x-error-codes': statusCodes,
      content: { 'application/problem+json': { schema: problem } },
    };
    if (status === 429) {
      (responses['429'] as JsonObject).headers = {
        'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
      };
    }
  }
  return responses;
}
