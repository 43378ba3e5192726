import { useState } from 'preact/hooks';
import type { GrantableRole, Member } from '../api/types.ts';
import { useConsole } from '../app/ConsoleContext.ts';
import { navigate } from '../app/navigation.ts';
import { useProject, useProjectAllows } from '../app/ProjectContext.ts';
import { useResource } from '../app/useResource.ts';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { formatTime } from '../components/formatting.ts';
import { ProblemAlert } from '../components/ProblemAlert.tsx';
import { VisuallyHidden } from '../components/VisuallyHidden.tsx';
import { InvitationsPanel } from './InvitationsPanel.tsx';
import { RoleSelect } from './RoleSelect.tsx';

/** What the confirmation dialog asks about. */
type Pending =
  | { kind: 'remove'; member: Member }
  | { kind: 'transfer'; member: Member }
  | { kind: 'leave'; member: Member };

const DIALOG: Record<Pending['kind'], { title: (m: Member) => string; confirm: string; text: string }> = {
  remove: {
    title: (m) => `Remove ${m.email}?`,
    confirm: 'Remove member',
    text: 'Their access to the project ends at once, open live views included.',
  },
  transfer: {
    title: (m) => `Make ${m.email} the owner?`,
    confirm: 'Transfer project',
    text: 'They become the owner, and you an admin. Sessions and runs then count against their share.',
  },
  leave: {
    title: () => 'Leave this project?',
    confirm: 'Leave project',
    text: 'You lose access to it at once; an admin can invite you again.',
  },
};

/**
 * A project's members (docs/teams.md): everyone reads the list and may leave (but the owner); an
 * admin also invites (the link shown once), changes roles, removes members and revokes open
 * invitations; the owner also hands the project to another member.
 */
export function MembersScreen({ projectId }: { projectId: string }) {
  const { api, user, announce } = useConsole();
  const current = useProject();
  const isAdmin = useProjectAllows('admin');
  const isOwner = useProjectAllows('owner');
  const members = useResource(() => api.members.list(projectId), projectId);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<Pending | undefined>(undefined);
  const me = members.data?.find((member) => member.userId === user?.id);

  const act = async (action: () => Promise<unknown>, done: string, failed: string) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      announce(done);
      return true;
    } catch (failure) {
      setError(failure);
      announce(failed);
      return false;
    } finally {
      setBusy(false);
    }
  };

  const changeRole = async (member: Member, role: GrantableRole) => {
    if (
      await act(
        () => api.members.changeRole(projectId, member.userId, role),
        `${member.email} is now ${role}.`,
        `The role of ${member.email} was not changed.`,
      )
    )
      await members.reload();
  };

  const confirm = async () => {
    const asked = pending;
    setPending(undefined);
    if (!asked) return;
    const { member } = asked;
    if (asked.kind === 'leave') {
      const left = await act(
        () => api.members.remove(projectId, member.userId),
        `You left ${current?.project.name ?? 'the project'}.`,
        'You did not leave the project.',
      );
      if (left) navigate({ name: 'projects' });
      return;
    }
    const done =
      asked.kind === 'remove'
        ? await act(
            () => api.members.remove(projectId, member.userId),
            `${member.email} removed.`,
            `${member.email} was not removed.`,
          )
        : await act(
            () => api.projects.transfer(projectId, member.userId),
            `${member.email} is now the owner.`,
            'The project was not transferred.',
          );
    if (!done) return;
    await members.reload();
    if (asked.kind === 'transfer') await current?.reload();
  };

  return (
    <>
      <h1 tabIndex={-1}>Members</h1>
      {isAdmin ? <InvitationsPanel projectId={projectId} /> : null}
      <section aria-labelledby="member-list" class="panel">
        <h2 id="member-list">Members</h2>
        <ProblemAlert error={members.error} />
        <ProblemAlert error={error} />
        {members.data ? (
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">Members, the owner first</caption>
              <thead>
                <tr>
                  <th scope="col">E-mail</th>
                  <th scope="col">Role</th>
                  <th scope="col">Member since</th>
                  <th scope="col">
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </th>
                </tr>
              </thead>
              <tbody>
                {members.data.map((member) => {
                  const self = member.userId === user?.id;
                  const managed = isAdmin && !self && member.role !== 'owner';
                  return (
                    <tr key={member.userId}>
                      <td>
                        {member.email}
                        {self ? <span class="meta"> (you)</span> : null}
                      </td>
                      <td>
                        {managed ? (
                          <RoleSelect
                            label={`Role of ${member.email}`}
                            hideLabel
                            value={member.role as GrantableRole}
                            disabled={busy}
                            onChange={(role) => changeRole(member, role)}
                          />
                        ) : (
                          member.role
                        )}
                      </td>
                      <td>{formatTime(member.createdAt)}</td>
                      <td>
                        <div class="actions">
                          {isOwner && !self ? (
                            <button
                              type="button"
                              class="secondary"
                              disabled={busy}
                              onClick={() => setPending({ kind: 'transfer', member })}
                            >
                              Make owner<VisuallyHidden> {member.email}</VisuallyHidden>
                            </button>
                          ) : null}
                          {managed ? (
                            <button
                              type="button"
                              class="danger"
                              disabled={busy}
                              onClick={() => setPending({ kind: 'remove', member })}
                            >
                              Remove<VisuallyHidden> {member.email}</VisuallyHidden>
                            </button>
                          ) : null}
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        ) : members.loading ? (
          <p aria-busy="true">Loading members…</p>
        ) : null}
        {me && me.role !== 'owner' ? (
          <div class="actions">
            <button
              type="button"
              class="danger"
              disabled={busy}
              onClick={() => setPending({ kind: 'leave', member: me })}
            >
              Leave project
            </button>
          </div>
        ) : null}
      </section>
      <ConfirmDialog
        open={pending !== undefined}
        title={pending ? DIALOG[pending.kind].title(pending.member) : ''}
        confirmLabel={pending ? DIALOG[pending.kind].confirm : 'Confirm'}
        onCancel={() => setPending(undefined)}
        onConfirm={confirm}
      >
        <p>{pending ? DIALOG[pending.kind].text : ''}</p>
      </ConfirmDialog>
    </>
  );
}
