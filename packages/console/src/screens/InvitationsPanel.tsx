import { useState } from 'preact/hooks';
import type { CreatedInvitation, GrantableRole, Invitation } from '../api/types.ts';
import { useConsole } from '../app/ConsoleContext.ts';
import { useResource } from '../app/useResource.ts';
import { formatTime } from '../components/formatting.ts';
import { ProblemAlert } from '../components/ProblemAlert.tsx';
import { ShownOnceNotice } from '../components/ShownOnceNotice.tsx';
import { TextField } from '../components/TextField.tsx';
import { VisuallyHidden } from '../components/VisuallyHidden.tsx';
import { RoleSelect } from './RoleSelect.tsx';

/**
 * An admin's invitations (docs/teams.md): invite by e-mail and role, the link shown once to copy
 * (nothing is e-mailed); the open invitations, each revocable.
 */
export function InvitationsPanel({ projectId }: { projectId: string }) {
  const { api, announce } = useConsole();
  const invitations = useResource(() => api.invitations.list(projectId), projectId);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<GrantableRole>('developer');
  const [created, setCreated] = useState<CreatedInvitation | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);

  const invite = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const invitation = await api.members.invite(projectId, email.trim(), role);
      setCreated(invitation);
      setEmail('');
      announce(`Invitation for ${invitation.email} made. Copy its link now: it is shown only once.`);
      await invitations.reload();
    } catch (failure) {
      setError(failure);
      announce('The invitation was not made.');
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (invitation: Invitation) => {
    setError(undefined);
    try {
      await api.invitations.revoke(projectId, invitation.id);
      announce(`Invitation for ${invitation.email} revoked.`);
      if (created?.id === invitation.id) setCreated(undefined);
      await invitations.reload();
    } catch (failure) {
      setError(failure);
      announce('The invitation was not revoked.');
    }
  };

  return (
    <>
      <section aria-labelledby="invite-member" class="panel">
        <h2 id="invite-member">Invite a member</h2>
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
          <RoleSelect label="Role" value={role} onChange={setRole} />
          <button type="submit" disabled={busy}>
            Invite
          </button>
        </form>
        <ProblemAlert error={error} fieldPaths={['email']} />
        {created ? (
          <ShownOnceNotice
            title={`Invitation for ${created.email} as ${created.role ?? 'member'}: copy the link now, it is shown only once. It works once, until ${formatTime(created.expiresAt)}.`}
            label="Invitation link"
            value={created.url}
            copyLabel="Copy link"
            onDismiss={() => setCreated(undefined)}
          />
        ) : null}
      </section>
      <section aria-labelledby="open-invitations" class="panel">
        <h2 id="open-invitations">Open invitations</h2>
        <ProblemAlert error={invitations.error} />
        {invitations.data ? (
          invitations.data.length === 0 ? (
            <p class="empty">No open invitations.</p>
          ) : (
            <div class="table-wrap">
              <table>
                <caption class="visually-hidden">Open invitations, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">E-mail</th>
                    <th scope="col">Role</th>
                    <th scope="col">Invited</th>
                    <th scope="col">Expires</th>
                    <th scope="col">
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {invitations.data.map((invitation) => (
                    <tr key={invitation.id}>
                      <td>{invitation.email}</td>
                      <td>{invitation.role ?? '—'}</td>
                      <td>{formatTime(invitation.createdAt)}</td>
                      <td>{formatTime(invitation.expiresAt)}</td>
                      <td>
                        <button type="button" class="danger" onClick={() => revoke(invitation)}>
                          Revoke<VisuallyHidden> invitation for {invitation.email}</VisuallyHidden>
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        ) : invitations.loading ? (
          <p aria-busy="true">Loading invitations…</p>
        ) : null}
      </section>
    </>
  );
}
