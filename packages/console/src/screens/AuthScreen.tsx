import { useState } from 'preact/hooks';
import { ApiError } from '../api/ApiError.ts';
import type { User } from '../api/types.ts';
import { useConsole } from '../app/ConsoleContext.ts';
import { Link } from '../components/Link.tsx';
import { ProblemAlert } from '../components/ProblemAlert.tsx';
import { TextField } from '../components/TextField.tsx';

/** Props of `AuthScreen`. */
export interface AuthScreenProps {
  mode: 'signin' | 'signup';
  /** A note to show above the form, e.g. why the user was signed out. */
  notice?: string | undefined;
  onSignedIn: (user: User) => void;
  /** An invitation token (`bdi_…`) the sign-up passes on: what `SIGNUP=invite` or `closed` need. */
  invitation?: string | undefined;
  /** Inside another screen (the invitation page): an `h2`, and the other mode by a button, not a link. */
  onSwitchMode?: ((mode: 'signin' | 'signup') => void) | undefined;
}

/**
 * Sign in, or sign up (then sign in with the same credentials, and `sync` so the new user gets the
 * default project, http-api.md §3). A sign-up passes the invitation it was opened with.
 */
export function AuthScreen({ mode, notice, onSignedIn, invitation, onSwitchMode }: AuthScreenProps) {
  const { api, announce } = useConsole();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const signUp = mode === 'signup';
  const title = signUp ? 'Sign up' : 'Sign in';

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      if (signUp) await api.auth.signUp(email, password, invitation);
      const user = await api.auth.signIn(email, password);
      if (signUp) await api.auth.sync();
      announce(signUp ? `Signed up as ${user.email}.` : `Signed in as ${user.email}.`);
      onSignedIn(user);
    } catch (failure) {
      setError(failure);
      announce(failure instanceof ApiError ? failure.title : 'Request failed.');
    } finally {
      setBusy(false);
    }
  };

  const Heading = onSwitchMode ? 'h2' : 'h1';
  const other = signUp ? 'signin' : 'signup';
  const otherLabel = signUp ? 'Sign in instead' : 'Create an account';
  return (
    <section class="auth" aria-labelledby="auth-title">
      <Heading id="auth-title" tabIndex={-1}>
        {title}
      </Heading>
      {notice ? <p class="notice">{notice}</p> : null}
      {invitation && signUp ? (
        <p class="notice">You were invited: sign up with the e-mail address the invitation names.</p>
      ) : null}
      <form onSubmit={submit} noValidate>
        <TextField
          label="E-mail"
          type="email"
          name="email"
          autocomplete="username"
          required
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
          field="email"
          error={error}
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autocomplete={signUp ? 'new-password' : 'current-password'}
          required
          minLength={8}
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
          field="password"
          error={error}
          hint={signUp ? '8 to 256 characters.' : undefined}
        />
        <ProblemAlert error={error} fieldPaths={['email', 'password']} />
        <button type="submit" disabled={busy}>
          {title}
        </button>
      </form>
      <p>
        {signUp ? 'Already have an account? ' : 'No account yet? '}
        {onSwitchMode ? (
          <button type="button" class="secondary" onClick={() => onSwitchMode(other)}>
            {otherLabel}
          </button>
        ) : (
          <Link to={{ name: other }}>{otherLabel}</Link>
        )}
      </p>
    </section>
  );
}
