import { ForbiddenError } from '../shared/DomainError.ts';
import type { UserRepository } from './UserRepository.ts';

/**
 * Throws 403 `account_disabled` when an operator disabled `userId`'s account (SPEC §17). Read from
 * the store on every call, so a disable holds at once on every instance.
 */
export async function refuseDisabledAccount(users: UserRepository, userId: string): Promise<void> {
  const user = await users.findById(userId);
  if (user?.disabledAt) throw accountDisabled();
}

/** 403 `account_disabled`. */
export function accountDisabled(): ForbiddenError {
  return new ForbiddenError('account_disabled', 'This account was disabled by an operator.');
}
