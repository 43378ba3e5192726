import type { Caller } from '../access/Caller.ts';
import type { User } from '../auth/User.ts';
import { NotFoundError } from '../shared/DomainError.ts';
import type { OperatorsDeps } from './operatorsDeps.ts';
import { type OperatedAccount, requireOperator } from './requireOperator.ts';

/** Enables a disabled account again (SPEC §17; operators): it signs in anew; what ended stays ended. */
export class EnableAccount {
  private readonly deps: Pick<OperatorsDeps, 'users' | 'admission' | 'audit' | 'clock'>;

  constructor(deps: Pick<OperatorsDeps, 'users' | 'admission' | 'audit' | 'clock'>) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; userId: string }): Promise<OperatedAccount> {
    await requireOperator(this.deps, input.caller);
    const { users, admission } = this.deps;
    const target = await users.findById(input.userId);
    if (!target) throw new NotFoundError('Account');
    const answer = (user: User): OperatedAccount => ({ user, operator: admission.isOperator(user.email) });
    if (!target.disabledAt) return answer(target);
    const change = {
      projectId: null,
      action: 'account.enable',
      target: { type: 'user', id: target.id },
    } as const;
    await this.deps.audit.record(input.caller, change, () => users.setDisabled(target.id, null), true);
    return answer((await users.findById(target.id)) ?? target);
  }
}
