import { type Caller, requireUser } from '../access/Caller.ts';
import type { AccountAdmission } from '../auth/AccountAdmission.ts';
import type { User } from '../auth/User.ts';
import type { UserRepository } from '../auth/UserRepository.ts';
import { ForbiddenError } from '../shared/DomainError.ts';

/** An account as an operator's change answers it: with whether it is an operator's. */
export interface OperatedAccount {
  readonly user: User;
  readonly operator: boolean;
}

/**
 * The caller's account, if it is an operator's (SPEC §17: its e-mail is in `ADMIN_EMAILS`, and it is
 * enabled); anyone else is 403 `operator_only`, an API key 403 `forbidden_for_api_key`.
 */
export async function requireOperator(
  deps: { users: UserRepository; admission: AccountAdmission },
  caller: Caller,
): Promise<User> {
  const user = requireUser(caller, 'Operator endpoints');
  const account = await deps.users.findById(user.userId);
  if (!account || account.disabledAt || !deps.admission.isOperator(account.email)) {
    throw new ForbiddenError('operator_only', 'Only an operator (ADMIN_EMAILS) may do this.');
  }
  return account;
}
