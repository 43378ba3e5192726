import type { createUseCases } from './createUseCases.ts';

/**
 * Every use case, grouped by feature: what an in-process host calls (`useCases.projects.list
 * .execute({ caller: asUser(userId) })`), with the same rules an HTTP client gets. Derived from
 * `createUseCases`, the one list: a use case added there is here, in the composition's `useCases`
 * and in what the HTTP routes may pick, with no second list to keep in step.
 */
export type BrowserdeckUseCases = ReturnType<typeof createUseCases>;

/** Sign-up, sign-in, tokens and the current user. */
export type AuthUseCases = BrowserdeckUseCases['auth'];

/** A user's projects. */
export type ProjectUseCases = BrowserdeckUseCases['projects'];

/** Cloud-browser sessions in a project, and the background refresh of their status. */
export type SessionUseCases = BrowserdeckUseCases['sessions'];

/** Stored agents in a project. */
export type AgentUseCases = BrowserdeckUseCases['agents'];

/** A project's browser contexts (stored profiles) at the configured provider. */
export type ContextUseCases = BrowserdeckUseCases['contexts'];

/** A project's API keys (http-api.md §12). */
export type ApiKeyUseCases = BrowserdeckUseCases['apiKeys'];

/** A project's stored browser extensions (http-api.md §5, §13), which sessions load by `extensionId`. */
export type ExtensionUseCases = BrowserdeckUseCases['extensions'];

/** Runs of agents' and sessions' scripts (http-api.md §11), and the worker's side of them. */
export type RunUseCases = BrowserdeckUseCases['runs'];
