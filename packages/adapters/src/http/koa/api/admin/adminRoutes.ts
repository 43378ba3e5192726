import type { AccountSummary, AccountUsage, User } from '@browserdeck/domain';
import { z } from 'zod';
import { type AnyRoute, defineRoute } from '../../kernel/routing/RouteDefinition.ts';
import { CreatedInvitationSchema } from '../members/memberSchemas.ts';
import { presentCreatedInvitation } from '../members/presentMember.ts';
import { presentProject } from '../projects/presentProject.ts';
import { ProjectListItemSchema } from '../projects/projectSchemas.ts';
import { emptyBody, queryInteger, timestamp, uuidParam } from '../shared/commonSchemas.ts';
import { isoTimestamp } from '../shared/isoTimestamp.ts';
import type { UseCasesOf } from '../shared/UseCasesOf.ts';

/** The use cases behind `/v1/admin`. */
export type AdminRouteDeps = UseCasesOf<
  'operators',
  'listAccounts' | 'inviteAccount' | 'disableAccount' | 'enableAccount' | 'usage'
>;

/** These routes' OpenAPI tag and what it groups. */
export const ADMIN_TAG = {
  name: 'Operators',
  description:
    'What the installation’s operators (`ADMIN_EMAILS`) do: list accounts with their projects and usage, invite, disable and enable accounts. Anyone else: 403 `operator_only`.',
};
const TAG = ADMIN_TAG.name;
const OPERATOR_ERRORS = ['operator_only'] as const;

const UsageSchema = z
  .object({
    userId: z.string(),
    browserSeconds: z.number().meta({ description: 'Browser time of the account’s sessions, in seconds.' }),
    sessions: z.number().int(),
    runs: z.number().int(),
    proxyBytes: z.number().int(),
  })
  .meta({ id: 'AccountUsage' });

const AccountSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    createdAt: timestamp,
    disabledAt: timestamp.nullable(),
    operator: z.boolean(),
  })
  .meta({ id: 'Account' });

const AccountSummarySchema = AccountSchema.extend({
  projects: z.array(ProjectListItemSchema),
  usage: UsageSchema,
}).meta({ id: 'AccountSummary' });

const userParams = z.object({ user_id: uuidParam });

function presentAccount(user: User, operator: boolean): z.output<typeof AccountSchema> {
  return {
    id: user.id,
    email: user.email,
    createdAt: isoTimestamp(user.createdAt),
    disabledAt: user.disabledAt ? isoTimestamp(user.disabledAt) : null,
    operator,
  };
}

function presentUsage(usage: AccountUsage): z.output<typeof UsageSchema> {
  const { userId, browserSeconds, sessions, runs, proxyBytes } = usage;
  return { userId, browserSeconds, sessions, runs, proxyBytes };
}

function presentSummary(summary: AccountSummary): z.output<typeof AccountSummarySchema> {
  return {
    ...presentAccount(summary.user, summary.operator),
    projects: summary.projects.map(({ project, role }) => ({ ...presentProject(project), role })),
    usage: presentUsage(summary.usage),
  };
}

/** `/v1/admin/users` and `/v1/admin/usage` (SPEC §17). */
export function adminRoutes(deps: AdminRouteDeps): AnyRoute[] {
  const scope = { tag: TAG, auth: 'user' as const };
  return [
    defineRoute({
      ...scope,
      method: 'GET',
      path: '/v1/admin/users',
      operationId: 'listAccounts',
      summary: 'List accounts, oldest first, with their projects and usage',
      description:
        'Each account with the active projects it is a member of (and its role there) and what its projects used.',
      query: z.object({
        cursor: z.string('must be given once').max(512).optional(),
        limit: queryInteger(1, 100)
          .optional()
          .meta({ description: 'Accounts per page, 1 to 100; default 50.' }),
      }),
      responses: {
        200: {
          description: 'A page of accounts.',
          schema: z.object({ accounts: z.array(AccountSummarySchema), nextCursor: z.string().nullable() }),
        },
      },
      errors: OPERATOR_ERRORS,
      handle: async ({ caller, query }) => {
        const page = await deps.listAccounts.execute({ caller, cursor: query.cursor, limit: query.limit });
        return {
          status: 200,
          body: { accounts: page.accounts.map(presentSummary), nextCursor: page.nextCursor },
        };
      },
    }),
    defineRoute({
      ...scope,
      method: 'POST',
      path: '/v1/admin/users',
      operationId: 'inviteAccount',
      summary: 'Invite someone to make an account',
      description:
        'Answers a sign-up link, shown this once, that works whatever `SIGNUP` says; nothing is e-mailed.',
      body: z.strictObject({ email: z.string('must be a string').max(1024) }),
      responses: { 201: { description: 'The invitation with its link.', schema: CreatedInvitationSchema } },
      errors: [...OPERATOR_ERRORS, 'email_taken'],
      handle: async ({ caller, body, publicUrls }) => {
        const created = await deps.inviteAccount.execute({ caller, email: body.email });
        return { status: 201, body: presentCreatedInvitation(created, publicUrls) };
      },
    }),
    defineRoute({
      ...scope,
      method: 'POST',
      path: '/v1/admin/users/{user_id}:disable',
      operationId: 'disableAccount',
      summary: 'Disable an account',
      description:
        'At once, on every instance, its access tokens, the API keys and live-view links of its projects stop working, and its projects’ runs are canceled and sessions released. The last enabled operator cannot be disabled (409 `last_operator`).',
      params: userParams,
      body: emptyBody,
      responses: { 200: { description: 'The account.', schema: AccountSchema } },
      errors: [...OPERATOR_ERRORS, 'not_found', 'last_operator'],
      handle: async ({ caller, params }) => {
        const { user, operator } = await deps.disableAccount.execute({ caller, userId: params.user_id });
        return { status: 200, body: presentAccount(user, operator) };
      },
    }),
    defineRoute({
      ...scope,
      method: 'POST',
      path: '/v1/admin/users/{user_id}:enable',
      operationId: 'enableAccount',
      summary: 'Enable a disabled account again',
      description:
        'It signs in anew; what ended when it was disabled stays ended. Enabling an enabled account answers it unchanged.',
      params: userParams,
      body: emptyBody,
      responses: { 200: { description: 'The account.', schema: AccountSchema } },
      errors: [...OPERATOR_ERRORS, 'not_found'],
      handle: async ({ caller, params }) => {
        const { user, operator } = await deps.enableAccount.execute({ caller, userId: params.user_id });
        return { status: 200, body: presentAccount(user, operator) };
      },
    }),
    defineRoute({
      ...scope,
      method: 'GET',
      path: '/v1/admin/usage',
      operationId: 'getUsage',
      summary: 'Usage per account, most browser time first',
      description:
        'Browser seconds (each session from its start to its end, or now), sessions, runs and proxy bytes of the projects each account owns.',
      responses: {
        200: {
          description: 'Usage of every account that used anything.',
          schema: z.object({ accounts: z.array(UsageSchema) }),
        },
      },
      errors: OPERATOR_ERRORS,
      handle: async ({ caller }) => {
        const usage = await deps.usage.execute({ caller });
        return { status: 200, body: { accounts: usage.map(presentUsage) } };
      },
    }),
  ];
}
