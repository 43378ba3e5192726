import type { User } from './User.ts';

/** The service's own user records. */
export interface UserRepository {
  /** Stores `user` unless a user with its id exists; returns the stored record either way. Race-safe. */
  ensure(user: User): Promise<User>;
  findById(id: string): Promise<User | null>;
}
