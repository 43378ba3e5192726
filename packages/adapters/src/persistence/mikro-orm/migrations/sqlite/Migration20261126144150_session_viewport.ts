import { Migration } from '@mikro-orm/migrations';

export class Migration20261126144150_session_viewport extends Migration {
  override name = 'Migration20261126144150_session_viewport';

  override up(): void | Promise<void> {
    this.addSql(`alter table \`browser_sessions\` add column \`viewport\` json null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table \`browser_sessions\` drop column \`viewport\`;`);
  }
}
