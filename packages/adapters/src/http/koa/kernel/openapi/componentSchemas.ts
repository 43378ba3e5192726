import type { z } from 'zod';
import { AgentSchema } from '../../api/agents/agentSchemas.ts';
import { ApiKeySchema, CreatedApiKeySchema } from '../../api/api-keys/apiKeySchemas.ts';
import {
  SignOutResponse,
  SyncResponse,
  TokenResponse,
  UserEnvelope,
  UserSchema,
} from '../../api/auth/authSchemas.ts';
import { ProjectSchema } from '../../api/projects/projectSchemas.ts';
import {
  LogEntrySchema,
  SessionLiveUrlsSchema,
  SessionLogsSchema,
  SessionPageSchema,
  SessionSchema,
  SessionStatsSchema,
} from '../../api/sessions/sessionSchemas.ts';
import { FieldErrorSchema, ProblemSchema, StatusSchema } from '../../api/shared/commonSchemas.ts';

/**
 * The schemas the OpenAPI document names in `components/schemas`, by name. Wherever the document
 * shows one of them (a response, or a field of another schema) it shows a `$ref` to its entry; a
 * schema not listed here is written out where it is used. A feature adds the resources it answers.
 */
export const COMPONENT_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  Problem: ProblemSchema,
  FieldError: FieldErrorSchema,
  Status: StatusSchema,
  User: UserSchema,
  UserEnvelope,
  TokenGrant: TokenResponse,
  SignOutMessage: SignOutResponse,
  SyncResult: SyncResponse,
  Project: ProjectSchema,
  Session: SessionSchema,
  SessionPage: SessionPageSchema,
  SessionStats: SessionStatsSchema,
  SessionLogPage: SessionLogsSchema,
  LogEntry: LogEntrySchema,
  SessionLiveUrls: SessionLiveUrlsSchema,
  Agent: AgentSchema,
  ApiKey: ApiKeySchema,
  CreatedApiKey: CreatedApiKeySchema,
};
