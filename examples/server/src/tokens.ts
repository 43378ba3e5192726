import type { BrowserdeckOrm, LocalIdentityStore } from '@browserdeck/adapters';
import type {
  ArchiveProject,
  Authenticate,
  Clock,
  CreateProject,
  DeleteProject,
  GetCurrentUser,
  GetProject,
  IdentityProvider,
  IdGenerator,
  ListProjects,
  ProjectRepository,
  RateLimiter,
  RefreshSession,
  SignIn,
  SignOut,
  SignUp,
  SyncUser,
  UpdateProject,
  UserRepository,
} from '@browserdeck/domain';
import type { ServiceIdentifier } from 'inversify';
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { Config } from './config.ts';

/** A typed, process-wide token: `Symbol.for` so two copies of this module agree. */
function token<T>(name: string): ServiceIdentifier<T> {
  return Symbol.for(`@browserdeck/${name}`);
}

/** Every service the server composes, by role. */
export const TOKENS = {
  Config: token<Config>('Config'),
  Logger: token<Logger>('Logger'),
  Clock: token<Clock>('Clock'),
  IdGenerator: token<IdGenerator>('IdGenerator'),
  RateLimiter: token<RateLimiter>('RateLimiter'),
  Orm: token<BrowserdeckOrm>('Orm'),
  UserRepository: token<UserRepository>('UserRepository'),
  LocalIdentityStore: token<LocalIdentityStore>('LocalIdentityStore'),
  ProjectRepository: token<ProjectRepository>('ProjectRepository'),
  IdentityProvider: token<IdentityProvider>('IdentityProvider'),
  SignUp: token<SignUp>('SignUp'),
  SignIn: token<SignIn>('SignIn'),
  RefreshSession: token<RefreshSession>('RefreshSession'),
  SignOut: token<SignOut>('SignOut'),
  Authenticate: token<Authenticate>('Authenticate'),
  GetCurrentUser: token<GetCurrentUser>('GetCurrentUser'),
  SyncUser: token<SyncUser>('SyncUser'),
  CreateProject: token<CreateProject>('CreateProject'),
  ListProjects: token<ListProjects>('ListProjects'),
  GetProject: token<GetProject>('GetProject'),
  UpdateProject: token<UpdateProject>('UpdateProject'),
  ArchiveProject: token<ArchiveProject>('ArchiveProject'),
  DeleteProject: token<DeleteProject>('DeleteProject'),
  HttpApp: token<Koa>('HttpApp'),
} as const;
