/** A JSON value as the document holds it. */
export type JsonObject = Record<string, unknown>;

/** One operation of the OpenAPI document. */
export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: Array<Record<string, string[]>>;
  parameters: JsonObject[];
  requestBody?: JsonObject;
  responses: Record<string, JsonObject>;
  /** The least project role the operation needs (SPEC §17), as its route declares it. */
  'x-browserdeck-role'?: string;
}

/** Where the API is served: a URL reference the document's paths are relative to. */
export interface OpenApiServer {
  url: string;
  description?: string;
}

/**
 * The OpenAPI 3.1 document served at `/openapi.json`. A type, not an interface, so it is a JSON
 * object to the response schema of `/openapi.json` (`z.looseObject`).
 */
export type OpenApiDocument = {
  openapi: '3.1.0';
  info: {
    title: string;
    version: string;
    description: string;
    contact: { name: string };
    license: { name: string; identifier: string };
  };
  servers: OpenApiServer[];
  tags: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, JsonObject>;
    responses: Record<string, JsonObject>;
    securitySchemes: Record<string, JsonObject>;
  };
};
