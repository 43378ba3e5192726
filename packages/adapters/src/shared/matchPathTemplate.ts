/** A path template's `{name}` parameters: one segment, never empty, never holding a colon. */
const PARAMETER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** What a path matched under a template: the decoded parameters, and what follows when matched as a prefix. */
export interface PathTemplateMatch {
  params: Record<string, string>;
  /** With `prefix`: the rest of the path after the template's (`''` or `/…`), as sent; else `''`. */
  rest: string;
}

/**
 * The decoded parameters of `path` under an OpenAPI-style `template`, or null when it does not
 * match. A parameter is one path segment, as in the HTTP routes, and never holds a colon. With
 * `prefix`, the template may be followed by more segments (`/v1/x/{id}` matches `/v1/x/1/a/b`, whose
 * rest is `/a/b`, but not `/v1/x/1a`).
 */
export function matchPathTemplate(template: string, path: string, prefix = false): PathTemplateMatch | null {
  const names: string[] = [];
  const source = template
    .split(PARAMETER)
    .map((part, index) => {
      if (index % 2 === 1) {
        names.push(part);
        return '([^/:]+)';
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  const captures = new RegExp(`^${source}${prefix ? '(/.*)?' : ''}$`, 's').exec(path);
  if (!captures) return null;
  const params: Record<string, string> = {};
  for (const [index, name] of names.entries()) {
    try {
      params[name] = decodeURIComponent(captures[index + 1] ?? '');
    } catch {
      return null;
    }
  }
  return { params, rest: prefix ? (captures[names.length + 1] ?? '') : '' };
}
