import { randomUUID } from 'node:crypto';
import type { Browserbase } from '@browserbasehq/sdk';
import {
  type BrowserContextInfo,
  type BrowserContextStore,
  type Clock,
  ConflictError,
  ProviderError,
} from '@browserdeck/domain';

/** Prefix of the `name` we give every context we create at Browserbase: `browserdeck:<projectId>:<random>`. */
export const CONTEXT_NAME_PREFIX = 'browserdeck:';

/** An SDK call the provider runs for the store: under its deadline, failures as `ProviderError`s. */
export type BrowserbaseCall = (
  operation: string,
  run: (client: Browserbase, signal: AbortSignal) => Promise<unknown>,
) => Promise<unknown>;

/** What BrowserbaseContextStore needs from its provider. */
export interface BrowserbaseContextStoreDeps {
  /** The Browserbase project contexts are made in. */
  readonly providerProjectId: string;
  readonly clock: Clock;
  /** One attempt (a create must never make two contexts). */
  readonly once: BrowserbaseCall;
  /** A read, retried on connection errors and 5xx; a 404 → null. */
  readonly read: BrowserbaseCall;
}

/**
 * Browserbase's contexts, through the SDK (`contexts.create`, `retrieve`, `delete`). All our
 * projects share the configured Browserbase project, so each context is named after our project
 * (`browserdeck:<projectId>:<random>`, Browserbase names being unique per project) and one not
 * named for the asking project is unknown to it. Browserbase's create answers no times: `createdAt`
 * and `updatedAt` of a new context are our clock's.
 */
export class BrowserbaseContextStore implements BrowserContextStore {
  private readonly deps: BrowserbaseContextStoreDeps;

  constructor(deps: BrowserbaseContextStoreDeps) {
    this.deps = deps;
  }

  async create(projectId: string): Promise<BrowserContextInfo> {
    const params = {
      projectId: this.deps.providerProjectId,
      name: `${CONTEXT_NAME_PREFIX}${projectId}:${randomUUID()}`,
    };
    const body = (await this.deps.once('create a context', (client, signal) =>
      client.contexts.create(params, { maxRetries: 0, signal }),
    )) as { id?: unknown } | null;
    if (typeof body?.id !== 'string')
      throw new ProviderError('provider_error', 'Browserbase answered a context create without an id.');
    const now = this.deps.clock.now();
    return { id: body.id, projectId, createdAt: now, updatedAt: now };
  }

  async get(projectId: string, contextId: string): Promise<BrowserContextInfo | null> {
    if (contextId === '') return null;
    const id = encodeURIComponent(contextId);
    const body = (await this.deps.read('read a context', (client, signal) =>
      client.contexts.retrieve(id, { signal }),
    )) as Browserbase.Context | null;
    if (!body || body.id !== contextId || projectOf(body.name) !== projectId) return null;
    return {
      id: body.id,
      projectId,
      createdAt: new Date(body.createdAt),
      updatedAt: new Date(body.updatedAt),
    };
  }

  async delete(projectId: string, contextId: string): Promise<boolean> {
    if (!(await this.get(projectId, contextId))) return false;
    const id = encodeURIComponent(contextId);
    try {
      await this.deps.once('delete a context', (client, signal) =>
        client.contexts.delete(id, { maxRetries: 0, signal }),
      );
      return true;
    } catch (error) {
      // Gone since we read it.
      if (statusOf(error) === 404) return false;
      if (statusOf(error) === 409)
        throw new ConflictError(
          'context_in_use',
          `Context ${contextId} is in use by a running session; release the session first.`,
        );
      throw error;
    }
  }
}

/** Our project id in a context name we gave, or null for any other name. */
function projectOf(name: string | undefined): string | null {
  if (!name?.startsWith(CONTEXT_NAME_PREFIX)) return null;
  const rest = name.slice(CONTEXT_NAME_PREFIX.length);
  const end = rest.lastIndexOf(':');
  return end > 0 ? rest.slice(0, end) : null;
}

/** The HTTP status behind a mapped provider error (`toProviderError` keeps the SDK error as `cause`). */
export function statusOf(error: unknown): number | undefined {
  const status = (error as { cause?: { status?: unknown } } | null)?.cause?.status;
  return typeof status === 'number' ? status : undefined;
}
