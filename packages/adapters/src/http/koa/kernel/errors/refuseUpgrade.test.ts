import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import type { ErrorCode } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import { refuseUpgrade } from './refuseUpgrade.ts';

/** What `refuseUpgrade` writes for a request with `headers`, split into status line, headers and body. */
async function refusal(code: ErrorCode, headers: Record<string, string> = {}) {
  const socket = new PassThrough();
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => socket.on('end', resolve));
  refuseUpgrade({ headers } as unknown as IncomingMessage, socket, code, 'Because.');
  await ended;
  const [head = '', body = ''] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const fields = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 2)]),
  );
  return { statusLine, fields, body };
}

describe('refuseUpgrade', () => {
  it.each([
    ['unauthorized', 401, 'Unauthorized'],
    ['not_found', 404, 'Not found'],
    ['session_ended', 409, 'Session ended'],
  ] as const)(
    'answers %s as the API would: %i problem+json, the echoed request id',
    async (code, status, title) => {
      const { statusLine, fields, body } = await refusal(code, { 'x-request-id': 'trace-7' });
      expect(statusLine).toBe(`HTTP/1.1 ${status} ${title}`);
      expect(fields['content-type']).toBe('application/problem+json');
      expect(fields['x-request-id']).toBe('trace-7');
      expect(fields.connection).toBe('close');
      expect(fields['x-content-type-options']).toBe('nosniff');
      expect(fields['x-frame-options']).toBe('DENY');
      expect(fields['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(Number(fields['content-length'])).toBe(Buffer.byteLength(body));
      expect(JSON.parse(body)).toEqual({
        type: `/docs#error-${code}`,
        title,
        status,
        detail: 'Because.',
        code,
        requestId: 'trace-7',
      });
    },
  );

  it('gives a request without a sane X-Request-Id a new one', async () => {
    const { fields, body } = await refusal('not_found', { 'x-request-id': 'has spaces' });
    expect(fields['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(body).requestId).toBe(fields['x-request-id']);
  });
});
