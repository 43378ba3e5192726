import { createHash } from 'node:crypto';
import { ERROR_STATUS } from '../errors/errorStatus.ts';
import { PROBLEM_CODES } from '../errors/problemCodes.ts';
import type { JsonObject, OpenApiDocument, OpenApiOperation } from './OpenApiDocument.ts';

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
h2{border-bottom:1px solid #ccc;margin-top:2.5rem}section{margin:1.5rem 0;padding-bottom:1rem;border-bottom:1px dashed #ddd}
.m{display:inline-block;min-width:4.5rem;font:bold 13px monospace;padding:2px 6px;border-radius:4px;background:#eef;color:#225}
.auth{font-size:13px;color:#855}pre{background:#f6f6f6;padding:.6rem;overflow:auto;font-size:13px;max-height:24rem}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}
nav a{margin-right:1rem}code{font-size:14px}`;

/**
 * The Content-Security-Policy of the reference page: it needs nothing but its one inline style
 * sheet, allowed by hash (no `'unsafe-inline'`, no scripts, images, fonts or connections); it may
 * not be framed, and it has no forms and no `<base>` to abuse.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function pre(value: unknown): string {
  return `<pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre>`;
}

function schemaOf(content: unknown): unknown {
  const media = Object.values((content ?? {}) as Record<string, JsonObject>)[0];
  return media?.schema;
}

/** The component name `value` refers to with a `$ref` under `prefix` (`#/components/schemas/`, …). */
function refName(value: unknown, prefix: string): string | undefined {
  const ref = (value as JsonObject | undefined)?.$ref;
  return typeof ref === 'string' && ref.startsWith(prefix) ? ref.slice(prefix.length) : undefined;
}

const SCHEMAS = '#/components/schemas/';
const RESPONSES = '#/components/responses/';

function renderOperation(
  path: string,
  method: string,
  op: OpenApiOperation,
  components: OpenApiDocument['components'],
): string {
  const parts = [
    `<section id="${escapeHtml(op.operationId)}">`,
    `<h3><span class="m">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>`,
    `<p>${escapeHtml(op.summary)}${op.security.length > 0 ? ' <span class="auth">🔒 Bearer token</span>' : ''}</p>`,
  ];
  if (op.description) parts.push(`<p>${escapeHtml(op.description)}</p>`);
  if (op.parameters.length > 0) {
    const rows = op.parameters.map(
      (p) =>
        `<tr><td><code>${escapeHtml(String(p.name))}</code></td><td>${escapeHtml(String(p.in))}</td>` +
        `<td>${p.required ? 'required' : 'optional'}</td><td><code>${escapeHtml(JSON.stringify(p.schema))}</code></td></tr>`,
    );
    parts.push(`<h4>Parameters</h4><table>${rows.join('')}</table>`);
  }
  if (op.requestBody) {
    const required = op.requestBody.required ? 'required' : 'optional';
    parts.push(
      `<h4>Request body (${required}, application/json)</h4>${pre(schemaOf(op.requestBody.content))}`,
    );
  }
  parts.push('<h4>Responses</h4>');
  for (const [status, entry] of Object.entries(op.responses)) {
    const response = components.responses[refName(entry, RESPONSES) ?? ''] ?? entry;
    const schema = status.startsWith('2') ? schemaOf(response.content) : undefined;
    const named = refName(schema, SCHEMAS);
    const link = named ? `: <a href="#schema-${escapeHtml(named)}">${escapeHtml(named)}</a>` : '';
    parts.push(`<p><b>${escapeHtml(status)}</b> ${escapeHtml(String(response.description))}${link}</p>`);
    if (!named && schema && Object.keys(schema).length > 0) parts.push(pre(schema));
  }
  parts.push('</section>');
  return parts.join('\n');
}

/**
 * A self-contained HTML API reference rendered from the OpenAPI document (no external assets), for an
 * app mounted under `mountPrefix` (`''` at the root): its link to the document starts with it.
 */
export function renderDocsHtml(document: OpenApiDocument, mountPrefix = ''): string {
  const documentPath = escapeHtml(`${mountPrefix}/openapi.json`);
  const byTag = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const tag = op.tags[0] ?? 'Other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), renderOperation(path, method, op, document.components)]);
    }
  }
  const slug = (tag: string) => `tag-${tag.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  const nav = [...byTag.keys()].map((t) => `<a href="#${slug(t)}">${escapeHtml(t)}</a>`).join('');
  const sections = [...byTag].map(
    ([t, ops]) => `<h2 id="${slug(t)}">${escapeHtml(t)}</h2>\n${ops.join('\n')}`,
  );
  const schemas = Object.entries(document.components.schemas).map(
    ([name, schema]) =>
      `<section id="schema-${escapeHtml(name)}"><h3>${escapeHtml(name)}</h3>${pre(schema)}</section>`,
  );
  // By status, so a transport code stands beside the domain codes of its status.
  const byStatus = [...PROBLEM_CODES].sort((a, b) => ERROR_STATUS[a].status - ERROR_STATUS[b].status);
  const errorRows = byStatus.map(
    (code) =>
      `<tr id="error-${code}"><td><code>${code}</code></td><td>${ERROR_STATUS[code].status}</td>` +
      `<td>${escapeHtml(ERROR_STATUS[code].title)}</td></tr>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(document.info.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${STYLE}</style></head>
<body><h1>${escapeHtml(document.info.title)}</h1><p>${escapeHtml(document.info.description)}</p>
<p>Machine-readable: <a href="${documentPath}">${documentPath}</a> (OpenAPI ${document.openapi}).
Every error is <code>application/problem+json</code> with a stable <code>code</code>; see <a href="#errors">Errors</a>.</p>
<nav>${nav}<a href="#schemas">Schemas</a><a href="#errors">Errors</a></nav>
${sections.join('\n')}
<h2 id="schemas">Schemas</h2>
${schemas.join('\n')}
<h2 id="errors">Errors</h2><p>Problem body:</p>${pre(document.components.schemas.Problem)}
<table><tr><th>code</th><th>status</th><th>title</th></tr>${errorRows.join('')}</table>
</body></html>
`;
}
