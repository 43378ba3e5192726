import type { User } from '../api/types.ts';
import { Link } from '../components/Link.tsx';
import { AdminScreen } from '../screens/AdminScreen.tsx';
import { AgentEditorScreen } from '../screens/AgentEditorScreen.tsx';
import { AgentsScreen } from '../screens/AgentsScreen.tsx';
import { ApiKeysScreen } from '../screens/ApiKeysScreen.tsx';
import { AuditScreen } from '../screens/AuditScreen.tsx';
import { AuthScreen } from '../screens/AuthScreen.tsx';
import { InvitationScreen } from '../screens/InvitationScreen.tsx';
import { MembersScreen } from '../screens/MembersScreen.tsx';
import { ProjectFrame } from '../screens/ProjectFrame.tsx';
import { ProjectsScreen } from '../screens/ProjectsScreen.tsx';
import { RunDetailScreen } from '../screens/RunDetailScreen.tsx';
import { RunsScreen } from '../screens/RunsScreen.tsx';
import { SessionDetailScreen } from '../screens/SessionDetailScreen.tsx';
import { SessionsScreen } from '../screens/SessionsScreen.tsx';
import { StatsScreen } from '../screens/StatsScreen.tsx';
import { fragmentParam, type Route } from './routes.ts';

/** Props of `Screen`. */
export interface ScreenProps {
  route: Route;
  notice: string | undefined;
  onSignedIn: (user: User) => void;
}

/** The screen of a route. */
export function Screen({ route, notice, onSignedIn }: ScreenProps) {
  switch (route.name) {
    case 'signin':
    case 'signup':
      return (
        <AuthScreen
          key={route.name}
          mode={route.name}
          notice={notice}
          onSignedIn={onSignedIn}
          // An operator's sign-up link: `/console/signup#invitation=bdi_…`.
          invitation={route.name === 'signup' ? fragmentParam(window.location.hash, 'invitation') : undefined}
        />
      );
    case 'invitation':
      return <InvitationScreen onSignedIn={onSignedIn} />;
    case 'admin':
      return <AdminScreen />;
    case 'projects':
      return <ProjectsScreen />;
    case 'sessions':
      return (
        <ProjectFrame projectId={route.projectId} tab="sessions">
          {() => <SessionsScreen projectId={route.projectId} status={route.status} offset={route.offset} />}
        </ProjectFrame>
      );
    case 'session':
      return (
        <ProjectFrame projectId={route.projectId} tab="sessions">
          {() => <SessionDetailScreen projectId={route.projectId} sessionId={route.sessionId} />}
        </ProjectFrame>
      );
    case 'stats':
      return (
        <ProjectFrame projectId={route.projectId} tab="stats">
          {() => <StatsScreen projectId={route.projectId} />}
        </ProjectFrame>
      );
    case 'agents':
      return (
        <ProjectFrame projectId={route.projectId} tab="agents">
          {() => <AgentsScreen projectId={route.projectId} />}
        </ProjectFrame>
      );
    case 'agent':
      return (
        <ProjectFrame projectId={route.projectId} tab="agents">
          {() => (
            <AgentEditorScreen key={route.agentId} projectId={route.projectId} agentId={route.agentId} />
          )}
        </ProjectFrame>
      );
    case 'runs':
      return (
        <ProjectFrame projectId={route.projectId} tab="runs">
          {() => (
            <RunsScreen
              projectId={route.projectId}
              agentId={route.agentId}
              status={route.status}
              offset={route.offset}
            />
          )}
        </ProjectFrame>
      );
    case 'run':
      return (
        <ProjectFrame projectId={route.projectId} tab="runs">
          {() => <RunDetailScreen key={route.runId} projectId={route.projectId} runId={route.runId} />}
        </ProjectFrame>
      );
    case 'apiKeys':
      return (
        <ProjectFrame projectId={route.projectId} tab="apiKeys">
          {() => <ApiKeysScreen projectId={route.projectId} />}
        </ProjectFrame>
      );
    case 'members':
      return (
        <ProjectFrame projectId={route.projectId} tab="members">
          {() => <MembersScreen projectId={route.projectId} />}
        </ProjectFrame>
      );
    case 'audit':
      return (
        <ProjectFrame projectId={route.projectId} tab="audit">
          {() => <AuditScreen projectId={route.projectId} />}
        </ProjectFrame>
      );
    case 'notFound':
      return (
        <>
          <h1 tabIndex={-1}>Page not found</h1>
          <p>
            There is no console page at this address.{' '}
            <Link to={{ name: 'projects' }}>Go to your projects</Link>.
          </p>
        </>
      );
  }
}
