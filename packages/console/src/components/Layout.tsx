import type { ComponentChildren } from 'preact';
import type { User } from '../api/types.ts';
import { Link } from './Link.tsx';

/** Props of `Layout`. */
export interface LayoutProps {
  user: User | undefined;
  onSignOut: () => void;
  /** The last status message, read out by screen readers. */
  status: string;
  children: ComponentChildren;
}

/** The page frame: skip link, header with the main navigation, the screen, and the status line. */
export function Layout({ user, onSignOut, status, children }: LayoutProps) {
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <Link class="brand" to={{ name: user ? 'projects' : 'signin' }}>
          Browserdeck
        </Link>
        <nav aria-label="Main" class="topnav">
          {user ? (
            <>
              <Link to={{ name: 'projects' }}>Projects</Link>
              {/* For operators (ADMIN_EMAILS); anyone else is told so there. */}
              <Link to={{ name: 'admin' }}>Operators</Link>
            </>
          ) : (
            <>
              <Link to={{ name: 'signin' }}>Sign in</Link>
              <Link to={{ name: 'signup' }}>Sign up</Link>
            </>
          )}
        </nav>
        {user ? (
          <div class="account">
            <span class="account-email">{user.email}</span>
            <button type="button" class="secondary" onClick={onSignOut}>
              Sign out
            </button>
          </div>
        ) : null}
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <footer class="statusbar">
        <p role="status" aria-live="polite">
          {status}
        </p>
      </footer>
    </>
  );
}
