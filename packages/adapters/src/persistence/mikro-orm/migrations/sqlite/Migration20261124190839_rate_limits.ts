import { Migration } from '@mikro-orm/migrations';

export class Migration20261124190839_rate_limits extends Migration {
  override name = 'Migration20261124190839_rate_limits';

  override up(): void | Promise<void> {
    this.addSql(
      `create table \`rate_limit_windows\` (\`key\` text not null primary key, \`window_start\` datetime not null, \`expires_at\` datetime not null, \`attempts\` integer not null);`,
    );
    this.addSql(
      `create index \`rate_limit_windows_expires_at_index\` on \`rate_limit_windows\` (\`expires_at\`);`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists \`rate_limit_windows\`;`);
  }
}
