/**
 * Converts an OpenAPI path template to a @koa/router path: `{name}` becomes `:name` and a literal
 * colon is escaped, so `/projects/{project_id}:archive` becomes `/projects/:project_id\:archive`.
 */
export function toKoaPath(template: string): string {
  return template.replaceAll(':', '\\:').replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, ':$1');
}

/** The inverse of `toKoaPath`: a @koa/router path as an OpenAPI path template. */
export function toOpenApiPath(koaPath: string): string {
  return koaPath.replace(/(?<!\\):([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}').replaceAll('\\:', ':');
}
