import { Migration } from '@mikro-orm/migrations';

export class Migration20261202153001_session_shares extends Migration {
  override name = 'Migration20261202153001_session_shares';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "session_shares" ("session_id" text not null, "owner_id" text not null, "instance_id" text not null, "created_at" timestamptz(3) not null, "expires_at" timestamptz(3) not null, primary key ("session_id"));`,
    );
    this.addSql(`create index "session_shares_owner_id_index" on "session_shares" ("owner_id");`);
    this.addSql(`create index "session_shares_instance_id_index" on "session_shares" ("instance_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "session_shares" cascade;`);
  }
}
