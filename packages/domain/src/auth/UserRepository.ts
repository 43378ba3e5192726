import type { User } from './User.ts';

/** One page of the accounts, oldest first (`UserRepository.list`). */
export interface UserPage {
  readonly users: User[];
  /** Where the next page starts; null on the last page. */
  readonly nextCursor: string | null;
}

/** The service's own user records. */
export interface UserRepository {
  /** Stores `user` unless a user with its id exists; returns the stored record either way. Race-safe. */
  ensure(user: User): Promise<User>;
  findById(id: string): Promise<User | null>;
  /** The user with this (normalised) e-mail; null when there is none. */
  findByEmail(email: string): Promise<User | null>;
  /** Sets or clears `disabledAt`; false when there is no such user. */
  setDisabled(userId: string, disabledAt: Date | null): Promise<boolean>;
  /** A page of every account, oldest first; `cursor` is a `nextCursor` this answered. */
  list(page: { cursor?: string | undefined; limit: number }): Promise<UserPage>;
}
