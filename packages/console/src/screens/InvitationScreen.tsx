import { useMemo, useState } from 'preact/hooks';
import type { User } from '../api/types.ts';
import { useConsole } from '../app/ConsoleContext.ts';
import { navigate } from '../app/navigation.ts';
import { fragmentParam } from '../app/routes.ts';
import { ProblemAlert } from '../components/ProblemAlert.tsx';
import { AuthScreen } from './AuthScreen.tsx';

/** Props of `InvitationScreen`. */
export interface InvitationScreenProps {
  onSignedIn: (user: User) => void;
}

/**
 * The page a project invitation's link opens (`/console/invitation#token=bdi_…`, docs/teams.md): the
 * token is read from the fragment, which reaches no server. Signed out, it offers sign-up (passing
 * the invitation, which `SIGNUP=invite` needs) or sign-in, then accepts at once; signed in, it asks
 * before accepting. Accepted, it opens the project.
 */
export function InvitationScreen({ onSignedIn }: InvitationScreenProps) {
  const { api, user, announce } = useConsole();
  const token = useMemo(() => fragmentParam(window.location.hash, 'token'), []);
  const [mode, setMode] = useState<'signin' | 'signup'>('signup');
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);

  const accept = async () => {
    if (!token) return;
    setBusy(true);
    setError(undefined);
    try {
      const project = await api.invitations.accept(token);
      announce(`You joined ${project.name} as ${project.role}.`);
      navigate({ name: 'sessions', projectId: project.id, status: undefined, offset: 0 }, { replace: true });
    } catch (failure) {
      setError(failure);
      announce('The invitation was not accepted.');
      setBusy(false);
    }
  };

  if (!token) {
    return (
      <>
        <h1 tabIndex={-1}>Invitation</h1>
        <p class="notice">
          This address holds no invitation. Open the whole link you were given, including the part after #.
        </p>
      </>
    );
  }
  return (
    <>
      <h1 tabIndex={-1}>Join a project</h1>
      <p>
        You were invited to a project.{' '}
        {user
          ? `Accept the invitation as ${user.email}: it works only for the e-mail address it names.`
          : 'Sign up, or sign in, with the e-mail address the invitation names; then you join the project.'}
      </p>
      <ProblemAlert error={error} />
      {user ? (
        <div class="actions">
          <button type="button" disabled={busy} onClick={accept}>
            Accept invitation
          </button>
        </div>
      ) : (
        <AuthScreen
          key={mode}
          mode={mode}
          invitation={token}
          onSwitchMode={setMode}
          onSignedIn={(signedIn) => {
            onSignedIn(signedIn);
            void accept();
          }}
        />
      )}
    </>
  );
}
