import { ERROR_CODES } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, type ErrorStatus } from './errorStatus.ts';
import { HTTP_ERROR_CODES, PROBLEM_CODES, type ProblemCode } from './problemCodes.ts';

describe('ERROR_STATUS', () => {
  it('maps every code to an error status and a title', () => {
    expect(Object.keys(ERROR_STATUS).sort()).toEqual([...PROBLEM_CODES].sort());
    for (const code of PROBLEM_CODES) {
      expect(ERROR_STATUS[code].status).toBeGreaterThanOrEqual(400);
      expect(ERROR_STATUS[code].title).not.toBe('');
    }
  });

  it('states http-api.md §2 statuses', () => {
    expect(ERROR_STATUS.validation_failed.status).toBe(400);
    expect(ERROR_STATUS.method_not_allowed.status).toBe(405);
    expect(ERROR_STATUS.provider_timeout.status).toBe(504);
    expect(ERROR_STATUS.provider_error.status).toBe(502);
    expect(ERROR_STATUS.request_timeout.status).toBe(503);
    // SPEC §11 states 409 for a run on an ended session; one code has one status everywhere.
    expect(ERROR_STATUS.session_ended.status).toBe(409);
  });

  it('is exhaustive by type: a table missing a code does not compile', () => {
    const { internal: _dropped, ...partial } = ERROR_STATUS;
    // @ts-expect-error — `internal` is missing, so this is not a Record<ProblemCode, ErrorStatus>.
    const table: Record<ProblemCode, ErrorStatus> = partial;
    expect(Object.keys(table)).not.toContain('internal');
  });
});

describe('PROBLEM_CODES', () => {
  it('keeps the transport-only codes out of the domain’s list, each code in one list only', () => {
    for (const code of HTTP_ERROR_CODES) expect(ERROR_CODES).not.toContain(code);
    expect(new Set(PROBLEM_CODES).size).toBe(ERROR_CODES.length + HTTP_ERROR_CODES.length);
  });

  it('is exhaustive by type for a transport code too', () => {
    const { malformed_json: _dropped, ...partial } = ERROR_STATUS;
    // @ts-expect-error — `malformed_json` is missing, so this is not a Record<ProblemCode, ErrorStatus>.
    const table: Record<ProblemCode, ErrorStatus> = partial;
    expect(Object.keys(table)).not.toContain('malformed_json');
  });
});
