import type { Caller } from '../access/Caller.ts';
import type { Clock } from '../shared/Clock.ts';
import type { IdGenerator } from '../shared/IdGenerator.ts';
import type { Transactions } from '../shared/Transactions.ts';
import type { AuditAction, AuditActor, AuditEntry } from './AuditEntry.ts';
import type { AuditLog } from './AuditLog.ts';

/** What an `AuditTrail` needs. */
export interface AuditTrailDeps {
  auditLog: AuditLog;
  transactions: Transactions;
  ids: IdGenerator;
  clock: Clock;
}

/** What one audited change is: where, what, to what; the actor and the request come from the caller. */
export interface AuditedChange {
  readonly projectId: string | null;
  readonly action: AuditAction;
  readonly target: { readonly type: string; readonly id: string };
}

/**
 * Makes a change and its audit entry one transaction (SPEC §17): the use cases' one way to write
 * the audit log, so no change is stored without its entry, nor an entry without its change.
 */
export class AuditTrail {
  private readonly deps: AuditTrailDeps;

  constructor(deps: AuditTrailDeps) {
    this.deps = deps;
  }

  /**
   * Runs `work` and records `change` (or what `change` answers from `work`'s result) in the same
   * transaction. `asOperator`: the caller acts as an operator, and the entry says so.
   */
  async record<T>(
    caller: Caller,
    change: AuditedChange | ((result: T) => AuditedChange),
    work: () => Promise<T>,
    asOperator = false,
  ): Promise<T> {
    return this.deps.transactions.run(async () => {
      const result = await work();
      const { projectId, action, target } = typeof change === 'function' ? change(result) : change;
      await this.deps.auditLog.record(this.entry(caller, projectId, action, target, asOperator));
      return result;
    });
  }

  private entry(
    caller: Caller,
    projectId: string | null,
    action: AuditAction,
    target: AuditedChange['target'],
    asOperator: boolean,
  ): AuditEntry {
    const origin = caller.kind === 'system' ? undefined : caller.origin;
    return {
      id: this.deps.ids.next(),
      projectId,
      at: this.deps.clock.now(),
      actor: actorOf(caller, asOperator),
      action,
      target: { type: target.type, id: target.id },
      requestId: origin?.requestId ?? null,
      ip: origin?.ip ?? null,
    };
  }
}

/** Who `caller` is in the audit log: never a key's secret, only its id and name. */
export function actorOf(caller: Caller, asOperator = false): AuditActor {
  if (caller.kind === 'apiKey') return { type: 'apiKey', id: caller.keyId, name: caller.keyName };
  if (caller.kind === 'system') return { type: 'system', id: null };
  return { type: asOperator ? 'operator' : 'user', id: caller.userId, email: caller.signIn?.email };
}
