import { Migration } from '@mikro-orm/migrations';

/**
 * Counts and retention (issue 34): the files each session took (`upload_count`, at most
 * `UPLOADS_PER_SESSION_MAX`), and an index for the sweep that deletes runs past `RUN_RETENTION_DAYS`.
 */
export class Migration20261201220001_counts_and_retention extends Migration {
  override name = 'Migration20261201220001_counts_and_retention';

  override up(): void | Promise<void> {
    this.addSql(`alter table "browser_sessions" add "upload_count" int not null default 0;`);
    this.addSql(`create index "runs_ended_at_index" on "runs" ("ended_at", "id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "runs_ended_at_index";`);
    this.addSql(`alter table "browser_sessions" drop column "upload_count";`);
  }
}
