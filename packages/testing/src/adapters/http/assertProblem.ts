import assert from 'node:assert/strict';
import type { ProblemBody, ProblemCode } from '@browserdeck/adapters/http-koa';
import { ERROR_STATUS, problemType } from '@browserdeck/adapters/http-koa';

/**
 * Asserts that `response` is an RFC 9457 problem with `status` and `code`, complete with type, title,
 * detail and the response's own request id; returns the body for further checks.
 */
export async function assertProblem(
  response: Response,
  status: number,
  code: ProblemCode,
): Promise<ProblemBody> {
  const text = await response.text();
  assert.equal(response.status, status, `expected ${status} ${code}, got ${response.status}: ${text}`);
  assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
  const body = JSON.parse(text) as ProblemBody;
  assert.equal(body.code, code, text);
  assert.equal(body.status, status);
  assert.equal(body.type, problemType(code));
  assert.equal(body.title, ERROR_STATUS[code].title);
  assert.equal(typeof body.detail, 'string');
  assert.ok(body.detail.length > 0);
  assert.equal(body.requestId, response.headers.get('x-request-id'));
  return body;
}
