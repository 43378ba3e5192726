import { describe, expect, it } from 'vitest';
import { type AdmissionFacts, admissionError } from './admissionError.ts';

const now = new Date('2026-03-01T12:00:00.000Z');
const inSec = (s: number) => new Date(now.getTime() + s * 1000);
const facts: AdmissionFacts = {
  maxSessions: 4,
  maxPerOwner: 2,
  contextId: 'ctx-1',
  expiries: [inSec(30), inSec(600)],
  ownerExpiries: [inSec(600), inSec(45)],
  now,
};

describe('admissionError', () => {
  it('retries after the soonest deadline of any session when the host is full', () => {
    expect(admissionError('capacity', facts)).toMatchObject({
      code: 'provider_rate_limited',
      message: 'The local provider is running its maximum of 4 sessions; release one or retry later.',
      retryAfterSec: 30,
    });
  });

  it("retries after the soonest deadline of the account's own sessions at its share, within 1 to 60 s", () => {
    expect(admissionError('owner_share', facts)).toMatchObject({
      message: expect.stringContaining(
        'fair share of 2 local sessions across its projects (LOCAL_MAX_SESSIONS_PER_OWNER)',
      ),
      retryAfterSec: 45,
    });
    expect(admissionError('owner_share', { ...facts, ownerExpiries: [inSec(5000)] }).retryAfterSec).toBe(60);
    expect(admissionError('owner_share', { ...facts, ownerExpiries: [null] }).retryAfterSec).toBe(1);
  });

  it('names a busy context and retries after 5 s', () => {
    expect(admissionError('context_busy', facts)).toMatchObject({
      message: expect.stringContaining('Context ctx-1 is in use'),
      retryAfterSec: 5,
    });
  });
});
