import { Migration } from '@mikro-orm/migrations';

/**
 * Rows stored before runs were bounded (issue: a run's log stream name and error message were
 * taken as the run's process sent them): a stream outside the four is `stdout` (the script's own),
 * an error message is cut to 4096 characters and marked. No schema change.
 */
export class Migration20261201213000_bounded_run_rows extends Migration {
  override name = 'Migration20261201213000_bounded_run_rows';

  override up(): void | Promise<void> {
    this.addSql(
      `update \`run_logs\` set \`stream\` = 'stdout' where \`stream\` not in ('stdout', 'stderr', 'console', 'system');`,
    );
    this.addSql(
      `update \`runs\` set \`error\` = json_object('code', json_extract(\`error\`, '$.code'), 'message', substr(json_extract(\`error\`, '$.message'), 1, 4096) || ' …[message cut at 4 KiB]') where \`error\` is not null and length(json_extract(\`error\`, '$.message')) > 4096;`,
    );
  }

  override down(): void | Promise<void> {}
}
