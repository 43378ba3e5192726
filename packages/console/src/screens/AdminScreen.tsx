import { useState } from 'preact/hooks';
import { ApiError } from '../api/ApiError.ts';
import type { AccountSummary, AccountUsage, CreatedInvitation } from '../api/types.ts';
import { useConsole } from '../app/ConsoleContext.ts';
import { useResource } from '../app/useResource.ts';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { formatDuration, formatTime } from '../components/formatting.ts';
import { ProblemAlert } from '../components/ProblemAlert.tsx';
import { ShownOnceNotice } from '../components/ShownOnceNotice.tsx';
import { TextField } from '../components/TextField.tsx';
import { VisuallyHidden } from '../components/VisuallyHidden.tsx';

/** Accounts a page loads. */
const ACCOUNTS_PAGE = 50;

/** What an operator's pages load: the first page of accounts, then the usage (only for an operator). */
interface OperatorView {
  accounts: AccountSummary[];
  nextCursor: string | null;
  usage: AccountUsage[];
}

/** An account's usage as a line: browser time, sessions, runs. */
function usageLine(usage: AccountUsage): string {
  return `${formatDuration(usage.browserSeconds)} of browser time, ${usage.sessions} sessions, ${usage.runs} runs`;
}

/** Whether an answer is the server's "operators only" refusal. */
function isNotOperator(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403;
}

/**
 * The installation's operators' page (`ADMIN_EMAILS`, docs/teams.md): every account with its
 * projects and usage, disable and enable, invite an account (the sign-up link shown once), usage
 * per account. Anyone else is told politely that the page is not theirs.
 */
export function AdminScreen() {
  const { api, announce } = useConsole();
  const view = useResource<OperatorView>(async () => {
    // The accounts first: a 403 stops here, and no second refused request is made.
    const page = await api.admin.accounts(undefined, ACCOUNTS_PAGE);
    const usage = await api.admin.usage();
    return { accounts: page.accounts, nextCursor: page.nextCursor, usage: usage.accounts };
  }, 'admin');
  const [more, setMore] = useState<{ accounts: AccountSummary[]; nextCursor: string | null } | undefined>(
    undefined,
  );
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const [disabling, setDisabling] = useState<AccountSummary | undefined>(undefined);
  const accounts = [...(view.data?.accounts ?? []), ...(more?.accounts ?? [])];
  const nextCursor = more ? more.nextCursor : view.data?.nextCursor;
  const emailOf = new Map(accounts.map((account) => [account.id, account.email]));

  const reload = async () => {
    setMore(undefined);
    await view.reload();
  };

  const loadMore = async () => {
    if (!nextCursor) return;
    setBusy(true);
    setError(undefined);
    try {
      const page = await api.admin.accounts(nextCursor, ACCOUNTS_PAGE);
      setMore({ accounts: [...(more?.accounts ?? []), ...page.accounts], nextCursor: page.nextCursor });
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const setEnabled = async (account: AccountSummary, enabled: boolean) => {
    setDisabling(undefined);
    setBusy(true);
    setError(undefined);
    try {
      if (enabled) await api.admin.enable(account.id);
      else await api.admin.disable(account.id);
      announce(`Account ${account.email} ${enabled ? 'enabled' : 'disabled'}.`);
      await reload();
    } catch (failure) {
      setError(failure);
      announce(`Account ${account.email} was not ${enabled ? 'enabled' : 'disabled'}.`);
    } finally {
      setBusy(false);
    }
  };

  if (isNotOperator(view.error)) {
    return (
      <>
        <h1 tabIndex={-1}>Operators</h1>
        <p class="notice">
          This page is for the operators of this Browserdeck installation (the accounts its{' '}
          <code>ADMIN_EMAILS</code> setting names), and your account is not one of them. Your projects are on
          the projects page.
        </p>
      </>
    );
  }

  return (
    <>
      <h1 tabIndex={-1}>Operators</h1>
      <ProblemAlert error={view.error} />
      {view.loading && !view.data ? <p aria-busy="true">Loading accounts…</p> : null}
      {view.data ? (
        <>
          <InviteAccountForm />
          <section aria-labelledby="account-list" class="panel">
            <h2 id="account-list">Accounts</h2>
            <ProblemAlert error={error} />
            <div class="table-wrap">
              <table>
                <caption class="visually-hidden">Accounts, oldest first</caption>
                <thead>
                  <tr>
                    <th scope="col">E-mail</th>
                    <th scope="col">Created</th>
                    <th scope="col">Status</th>
                    <th scope="col">Projects</th>
                    <th scope="col">Usage</th>
                    <th scope="col">
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {accounts.map((account) => (
                    <tr key={account.id}>
                      <td>
                        {account.email}
                        {account.operator ? <span class="badge">operator</span> : null}
                      </td>
                      <td>{formatTime(account.createdAt)}</td>
                      <td>{account.disabledAt ? `disabled ${formatTime(account.disabledAt)}` : 'active'}</td>
                      <td class="wrap">
                        {account.projects.length === 0
                          ? '—'
                          : account.projects.map((p) => `${p.name} (${p.role})`).join(', ')}
                      </td>
                      <td class="wrap">{usageLine(account.usage)}</td>
                      <td>
                        {account.disabledAt ? (
                          <button
                            type="button"
                            class="secondary"
                            disabled={busy}
                            onClick={() => setEnabled(account, true)}
                          >
                            Enable<VisuallyHidden> {account.email}</VisuallyHidden>
                          </button>
                        ) : (
                          <button
                            type="button"
                            class="danger"
                            disabled={busy}
                            onClick={() => setDisabling(account)}
                          >
                            Disable<VisuallyHidden> {account.email}</VisuallyHidden>
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {nextCursor ? (
              <button type="button" class="secondary" disabled={busy} onClick={loadMore}>
                Load more accounts
              </button>
            ) : null}
          </section>
          <section aria-labelledby="usage" class="panel">
            <h2 id="usage">Usage per account</h2>
            {view.data.usage.length === 0 ? (
              <p class="empty">No account has used anything yet.</p>
            ) : (
              <div class="table-wrap">
                <table>
                  <caption class="visually-hidden">Usage per account, most browser time first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Account</th>
                      <th scope="col">Browser time</th>
                      <th scope="col">Sessions</th>
                      <th scope="col">Runs</th>
                      <th scope="col">Proxy bytes</th>
                    </tr>
                  </thead>
                  <tbody>
                    {view.data.usage.map((usage) => (
                      <tr key={usage.userId}>
                        <td>{emailOf.get(usage.userId) ?? <code>{usage.userId}</code>}</td>
                        <td>{formatDuration(usage.browserSeconds)}</td>
                        <td>{usage.sessions}</td>
                        <td>{usage.runs}</td>
                        <td>{usage.proxyBytes}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </>
      ) : null}
      <ConfirmDialog
        open={disabling !== undefined}
        title={`Disable ${disabling?.email ?? 'account'}?`}
        confirmLabel="Disable account"
        onCancel={() => setDisabling(undefined)}
        onConfirm={() => disabling && setEnabled(disabling, false)}
      >
        <p>
          Its sign-ins, its projects' API keys and live views stop at once, and its projects' runs are
          canceled and sessions released. It can be enabled again.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** An operator's invitation to make an account: the sign-up link, shown once. */
function InviteAccountForm() {
  const { api, announce } = useConsole();
  const [email, setEmail] = useState('');
  const [created, setCreated] = useState<CreatedInvitation | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const invite = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const invitation = await api.admin.invite(email.trim());
      setCreated(invitation);
      setEmail('');
      announce(`Sign-up link for ${invitation.email} made. Copy it now: it is shown only once.`);
    } catch (failure) {
      setError(failure);
      announce('The account invitation was not made.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="invite-account" class="panel">
      <h2 id="invite-account">Invite an account</h2>
      <form onSubmit={invite} class="inline-form">
        <TextField
          label="E-mail"
          type="email"
          required
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
          field="email"
          error={error}
        />
        <button type="submit" disabled={busy}>
          Invite account
        </button>
      </form>
      <ProblemAlert error={error} fieldPaths={['email']} />
      {created ? (
        <ShownOnceNotice
          title={`Sign-up link for ${created.email}: copy it now, it is shown only once. It works until ${formatTime(created.expiresAt)}, whatever the sign-up mode.`}
          label="Sign-up link"
          value={created.url}
          copyLabel="Copy link"
          onDismiss={() => setCreated(undefined)}
        />
      ) : null}
    </section>
  );
}
