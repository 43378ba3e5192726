import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiClient } from '../api/ApiClient.ts';
import { browserdeckApi } from '../api/BrowserdeckApi.ts';
import { REFRESH_TOKEN_KEY, TokenStore } from '../api/TokenStore.ts';
import type { User } from '../api/types.ts';
import { Layout } from '../components/Layout.tsx';
import { ProblemAlert } from '../components/ProblemAlert.tsx';
import { consoleBase } from '../consoleBase.ts';
import { ConsoleContext, type ConsoleState } from './ConsoleContext.ts';
import { navigate, useRoute } from './navigation.ts';
import { type Route, routeProjectId } from './routes.ts';
import { Screen } from './Screen.tsx';

/** `localStorage`, or nothing when the browser refuses it (then a sign-in lasts as long as the page). */
function pageStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** What identifies a screen (not its query): moving to another one moves the focus to `main`. */
function screenKey(route: Route): string {
  return [
    route.name,
    routeProjectId(route),
    'sessionId' in route ? route.sessionId : '',
    'agentId' in route ? route.agentId : '',
    'runId' in route ? route.runId : '',
  ].join('|');
}

/**
 * The console: resumes the sign-in a reload left (refresh token), keeps signed-out users on the
 * sign-in screens, and renders the screen of the address (history routing under `/console`).
 */
export function App() {
  const route = useRoute();
  const [user, setUser] = useState<User | undefined>(undefined);
  const [ready, setReady] = useState(false);
  const [startError, setStartError] = useState<unknown>(undefined);
  const [status, setStatus] = useState('');
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const returnTo = useRef<Route | undefined>(undefined);

  const { tokens, api } = useMemo(() => {
    const tokens = new TokenStore(pageStorage());
    const client = new ApiClient({
      fetch: window.fetch.bind(window),
      baseUrl: `${window.location.origin}${consoleBase.apiPrefix}`,
      tokens,
      now: Date.now,
      locks: navigator.locks,
      onSignedOut: (reason) => {
        setUser(undefined);
        setNotice(reason === 'expired' ? 'Your sign-in has ended. Sign in again.' : undefined);
        setStatus(reason === 'expired' ? 'Signed out: the sign-in has ended.' : 'Signed out.');
      },
    });
    return { tokens, api: browserdeckApi(client) };
  }, []);

  useEffect(() => {
    api.auth.resume().then(
      (resumed) => {
        setUser(resumed);
        setReady(true);
      },
      (error: unknown) => {
        setStartError(error);
        setReady(true);
      },
    );
    // Another tab signed out (it removed the shared refresh token): so does this one.
    const onStorage = (event: StorageEvent) => {
      if (event.key === REFRESH_TOKEN_KEY && event.newValue === null) {
        tokens.clear();
        setUser(undefined);
      }
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [api, tokens]);

  const isAuthScreen = route.name === 'signin' || route.name === 'signup';
  // The invitation page offers its own sign-in and sign-up, and keeps its address (the token is in
  // its fragment, which a redirect would lose).
  const isPublicScreen = isAuthScreen || route.name === 'invitation';
  useEffect(() => {
    if (!ready) return;
    if (!user && !isPublicScreen) {
      returnTo.current = route;
      navigate({ name: 'signin' }, { replace: true });
    }
    if (user && isAuthScreen) {
      navigate(returnTo.current ?? { name: 'projects' }, { replace: true });
      returnTo.current = undefined;
    }
  }, [ready, user, isAuthScreen, isPublicScreen, route]);

  const key = screenKey(route);
  const firstScreen = useRef(true);
  useEffect(() => {
    document.title = `${TITLES[route.name]} · Browserdeck console`;
    if (firstScreen.current) {
      firstScreen.current = false;
      return;
    }
    document.getElementById('main')?.focus();
  }, [key]);

  const announce = useCallback((message: string) => setStatus(message), []);
  const state: ConsoleState = useMemo(() => ({ api, user, announce }), [api, user, announce]);
  const signOut = async () => {
    try {
      await api.auth.signOut();
    } catch (error) {
      // Signed out here all the same; the server ends the sign-in when its tokens expire.
      setStatus(
        `Signed out here; the server did not confirm: ${error instanceof Error ? error.message : error}`,
      );
    }
  };

  return (
    <ConsoleContext.Provider value={state}>
      <Layout user={user} onSignOut={signOut} status={status}>
        <ProblemAlert error={startError} />
        {!ready ? (
          <p aria-busy="true">Loading…</p>
        ) : user || isPublicScreen ? (
          <Screen
            route={route}
            notice={notice}
            onSignedIn={(signedIn) => {
              setNotice(undefined);
              setStartError(undefined);
              setUser(signedIn);
            }}
          />
        ) : null}
      </Layout>
    </ConsoleContext.Provider>
  );
}

const TITLES: Record<Route['name'], string> = {
  signin: 'Sign in',
  signup: 'Sign up',
  projects: 'Projects',
  invitation: 'Invitation',
  admin: 'Operators',
  sessions: 'Sessions',
  session: 'Session',
  stats: 'Stats',
  agents: 'Agents',
  agent: 'Agent',
  runs: 'Runs',
  run: 'Run',
  apiKeys: 'API keys',
  members: 'Members',
  audit: 'Audit log',
  notFound: 'Not found',
};
