import type { Caller } from '../access/Caller.ts';
import type { User } from '../auth/User.ts';
import { stopProjectWork } from '../projects/stopProjectWork.ts';
import { ConflictError, NotFoundError } from '../shared/DomainError.ts';
import { silentLogger } from '../shared/Logger.ts';
import type { OperatorsDeps } from './operatorsDeps.ts';
import { type OperatedAccount, requireOperator } from './requireOperator.ts';

/**
 * Disables an account (SPEC §17; operators). From the same write on, on every instance: its access
 * tokens, sign-ins and refreshes are refused (`account_disabled`), the API keys and live-view links
 * of the projects it owns stop working, and so do its own live views elsewhere. Then its projects'
 * runs are canceled and its sessions released (through the holding instance when the provider
 * reaches other instances). Sessions it cannot reach are refused every new request, and the holding
 * instance's reconciler releases them on its next pass (`ReconcileSessions`). Disabling the last
 * enabled operator is refused (409 `last_operator`).
 */
export class DisableAccount {
  private readonly deps: OperatorsDeps;

  constructor(deps: OperatorsDeps) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; userId: string }): Promise<OperatedAccount> {
    await requireOperator(this.deps, input.caller);
    const { users, admission, clock } = this.deps;
    const target = await users.findById(input.userId);
    if (!target) throw new NotFoundError('Account');
    const answer = (user: User): OperatedAccount => ({ user, operator: admission.isOperator(user.email) });
    if (target.disabledAt) return answer(target);
    if (admission.isOperator(target.email) && !(await this.anotherOperator(target.id))) {
      throw new ConflictError(
        'last_operator',
        'This is the last enabled operator; enable or add another one first.',
      );
    }
    const now = clock.now();
    const change = {
      projectId: null,
      action: 'account.disable',
      target: { type: 'user', id: target.id },
    } as const;
    await this.deps.audit.record(input.caller, change, () => users.setDisabled(target.id, now), true);
    for (const projectId of await this.deps.projects.listOwnedIds(target.id)) {
      const elsewhere = await stopProjectWork(
        this.deps,
        projectId,
        'The run was canceled: its account was disabled by an operator.',
      );
      if (elsewhere.length > 0) {
        (this.deps.logger ?? silentLogger).warn(
          { userId: target.id, projectId, sessions: elsewhere.map((s) => s.id) },
          'a disabled account’s sessions run on another instance; they end there',
        );
      }
    }
    return answer((await users.findById(target.id)) ?? target);
  }

  private async anotherOperator(userId: string): Promise<boolean> {
    for (const email of this.deps.admission.operatorEmails()) {
      const account = await this.deps.users.findByEmail(email);
      if (account && account.id !== userId && !account.disabledAt) return true;
    }
    return false;
  }
}
