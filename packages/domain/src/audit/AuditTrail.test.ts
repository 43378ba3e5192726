import { InMemoryAuditLog, ManualClock, SequentialIdGenerator } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asSystem, asUser, type Caller, signedIn, withOrigin } from '../access/Caller.ts';
import { directTransactions } from '../shared/Transactions.ts';
import { AuditTrail } from './AuditTrail.ts';

function setUp() {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const auditLog = new InMemoryAuditLog();
  const audit = new AuditTrail({
    auditLog,
    transactions: directTransactions,
    ids: new SequentialIdGenerator(),
    clock,
  });
  const change = { projectId: 'p-1', action: 'agent.create', target: { type: 'agent', id: 'a-1' } } as const;
  return { clock, auditLog, audit, change };
}

describe('AuditTrail', () => {
  it('runs the work, answers its result and records the change with who, when and the request', async () => {
    const { audit, auditLog, change, clock } = setUp();
    const caller = withOrigin(
      signedIn({ userId: 'u-1', email: 'ada@example.com', sessionId: 's-1', expiresAt: clock.now() }),
      { requestId: 'req-1', ip: '203.0.113.7' },
    );
    await expect(audit.record(caller, change, async () => 42)).resolves.toBe(42);
    expect(auditLog.entries()).toEqual([
      {
        id: expect.any(String),
        projectId: 'p-1',
        at: clock.now(),
        actor: { type: 'user', id: 'u-1', email: 'ada@example.com' },
        action: 'agent.create',
        target: { type: 'agent', id: 'a-1' },
        requestId: 'req-1',
        ip: '203.0.113.7',
      },
    ]);
  });

  it.each<[string, Caller, boolean, object]>([
    [
      'an API key by id and name',
      { kind: 'apiKey', keyId: 'k-1', keyName: 'CI', role: 'developer', projectId: 'p-1' },
      false,
      { type: 'apiKey', id: 'k-1', name: 'CI' },
    ],
    ['the service as system', asSystem('p-1'), false, { type: 'system', id: null }],
    ['an operator’s change as operator', asUser('op-1'), true, { type: 'operator', id: 'op-1' }],
  ])('names %s', async (_, caller, asOperator, actor) => {
    const { audit, auditLog, change } = setUp();
    await audit.record(caller, change, async () => undefined, asOperator);
    expect(auditLog.entries()[0]?.actor).toEqual(expect.objectContaining(actor));
    expect(auditLog.entries()[0]).toMatchObject({ requestId: null, ip: null });
  });

  it('records nothing when the work fails, and passes the failure on', async () => {
    const { audit, auditLog, change } = setUp();
    await expect(
      audit.record(asUser('u-1'), change, async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(auditLog.entries()).toEqual([]);
  });

  it('takes the change from the work’s result when given a function', async () => {
    const { audit, auditLog } = setUp();
    await audit.record(
      asUser('u-1'),
      (id: string) => ({ projectId: 'p-1', action: 'run.create', target: { type: 'run', id } }),
      async () => 'run-7',
    );
    expect(auditLog.entries()[0]).toMatchObject({
      action: 'run.create',
      target: { type: 'run', id: 'run-7' },
    });
  });
});
