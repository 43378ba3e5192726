import type { Caller } from '../access/Caller.ts';
import type { ProjectGrant } from '../access/ProjectGrant.ts';
import type { User } from '../auth/User.ts';
import { Checks } from '../shared/checks.ts';
import type { OperatorsDeps } from './operatorsDeps.ts';
import { requireOperator } from './requireOperator.ts';
import type { AccountUsage } from './UsageRepository.ts';

/** The most accounts one page holds, and its default. */
export const ACCOUNTS_PAGE_MAX = 100;
export const ACCOUNTS_PAGE_DEFAULT = 50;

/** One account as an operator sees it. */
export interface AccountSummary {
  readonly user: User;
  /** Whether its e-mail is in `ADMIN_EMAILS`. */
  readonly operator: boolean;
  /** The active projects it is a member of, with its role. */
  readonly projects: ProjectGrant[];
  readonly usage: AccountUsage;
}

/** A page of every account, oldest first, with its projects and usage (SPEC §17; operators). */
export class ListAccounts {
  private readonly deps: Pick<OperatorsDeps, 'users' | 'admission' | 'projects' | 'usage' | 'clock'>;

  constructor(deps: Pick<OperatorsDeps, 'users' | 'admission' | 'projects' | 'usage' | 'clock'>) {
    this.deps = deps;
  }

  async execute(input: {
    caller: Caller;
    cursor?: string | undefined;
    limit?: number | undefined;
  }): Promise<{ accounts: AccountSummary[]; nextCursor: string | null }> {
    await requireOperator(this.deps, input.caller);
    const limit = input.limit ?? ACCOUNTS_PAGE_DEFAULT;
    new Checks()
      .require(
        Number.isInteger(limit) && limit >= 1 && limit <= ACCOUNTS_PAGE_MAX,
        'limit',
        `must be an integer from 1 to ${ACCOUNTS_PAGE_MAX}`,
      )
      .throwIfAny();
    const page = await this.deps.users.list({ cursor: input.cursor, limit });
    const usage = await this.deps.usage.usageOf(
      page.users.map((u) => u.id),
      this.deps.clock.now(),
    );
    const usageOf = new Map(usage.map((u) => [u.userId, u]));
    const accounts = await Promise.all(
      page.users.map(async (user) => ({
        user,
        operator: this.deps.admission.isOperator(user.email),
        projects: await this.deps.projects.listForMember(user.id, { archived: false }),
        usage: usageOf.get(user.id) ?? {
          userId: user.id,
          browserSeconds: 0,
          sessions: 0,
          runs: 0,
          proxyBytes: 0,
        },
      })),
    );
    return { accounts, nextCursor: page.nextCursor };
  }
}
