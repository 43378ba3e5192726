import { SESSION_STATUSES } from '@browserdeck/domain';
import { z } from 'zod';
import { timestamp } from '../api/shared/commonSchemas.ts';

// The Browserbase dialect's answers (http-api.md §13), in Browserbase's shapes. They type the
// presenters and let `HttpSettings.validateResponses` catch drift in tests; the dialect's routes are
// undocumented, so none of these reaches Browserdeck's OpenAPI document, and none is named.

/**
 * A session (Browserbase's SDK `Session`, plus the `connectUrl`, `seleniumRemoteUrl` and
 * `signingKey` Browserbase answers on create and read): create, list, read and release answer it.
 */
export const BrowserbaseSessionSchema = z.object({
  id: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
  projectId: z.string(),
  startedAt: timestamp,
  endedAt: timestamp.nullable(),
  expiresAt: timestamp,
  status: z.enum(SESSION_STATUSES),
  proxyBytes: z.int().nonnegative(),
  keepAlive: z.boolean(),
  contextId: z.string().nullable(),
  region: z.string(),
  userMetadata: z.record(z.string(), z.unknown()),
  connectUrl: z.string(),
  seleniumRemoteUrl: z.string().nullable(),
  signingKey: z.string().nullable(),
});

/** `GET /v1/sessions`: one bare array, newest first. */
export const BrowserbaseSessionListSchema = z.array(BrowserbaseSessionSchema);

/** A project (Browserbase's `Project`): the key's own only. */
export const BrowserbaseProjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  ownerId: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
  defaultTimeout: z.int().positive(),
  concurrency: z.int().nonnegative().nullable(),
});

/** `GET /v1/projects`: the key's project, alone, in an array. */
export const BrowserbaseProjectListSchema = z.array(BrowserbaseProjectSchema);

/** `GET /v1/projects/{id}/usage` */
export const BrowserbaseUsageSchema = z.object({
  browserMinutes: z.int().nonnegative(),
  proxyBytes: z.int().nonnegative(),
});

/** A context (Browserbase's `Context`): `GET /v1/contexts/{id}`. */
export const BrowserbaseContextSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

/**
 * `POST /v1/contexts`: the new context, with Browserbase's fields for uploading an encrypted profile,
 * all null (there is no upload here).
 */
export const BrowserbaseCreatedContextSchema = BrowserbaseContextSchema.extend({
  uploadUrl: z.null(),
  publicKey: z.null(),
  cipherAlgorithm: z.null(),
  initializationVectorSize: z.null(),
});

/** The statuses of a Browserbase invocation. */
export const INVOCATION_STATUSES = ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED'] as const;

/**
 * A Function invocation (Browserbase's `GET /v1/functions/invocations/{id}`): an agent run. A run
 * that has not started yet has no session, start or end: those are null.
 */
export const BrowserbaseInvocationSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  functionId: z.string(),
  versionId: z.string(),
  sessionId: z.string().nullable(),
  status: z.enum(INVOCATION_STATUSES),
  createdAt: timestamp,
  updatedAt: timestamp,
  startedAt: timestamp.nullable(),
  expiresAt: timestamp,
  endedAt: timestamp.nullable(),
  region: z.string().nullable(),
  params: z.unknown(),
  results: z.unknown(),
  cause: z.object({ code: z.string(), message: z.string() }).nullable(),
});
