import { defineEntity, p } from '@mikro-orm/core';
import { ProjectSchema } from './ProjectSchema.ts';

/**
 * A project's browser context (`browser_contexts`, the database's `ContextRecords`): which save of its
 * profile is stored (`version`, the blob `contexts/<projectId>/<id>/<version>`; null while it was
 * never saved) and its size, and the session saving to it now with that session's instance. A deleted
 * project takes its contexts along (`on delete cascade`).
 */
export const BrowserContextSchema = defineEntity({
  name: 'BrowserContext',
  tableName: 'browser_contexts',
  properties: {
    // Named within its project (the native API's `contextId` names a profile; a UUID when we made it).
    projectId: () =>
      p.manyToOne(ProjectSchema).mapToPk().fieldName('project_id').deleteRule('cascade').primary(),
    id: p.text().primary(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
    version: p.text().nullable(),
    size: p.integer(),
    holderSessionId: p.text().nullable(),
    holderInstanceId: p.text().nullable().index(),
    holderUntil: p.datetime(3).nullable(),
  },
});
