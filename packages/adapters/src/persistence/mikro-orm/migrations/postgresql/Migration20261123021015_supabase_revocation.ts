import { Migration } from '@mikro-orm/migrations';

export class Migration20261123021015_supabase_revocation extends Migration {
  override name = 'Migration20261123021015_supabase_revocation';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "supabase_issued_refresh_tokens" ("token_hash" text not null, "session_id" text not null, "access_token_ttl_sec" int not null, "expires_at" timestamptz(3) not null, primary key ("token_hash"));`,
    );
    this.addSql(
      `create index "supabase_issued_refresh_tokens_expires_at_index" on "supabase_issued_refresh_tokens" ("expires_at");`,
    );

    this.addSql(
      `create table "supabase_revoked_sessions" ("session_id" text not null, "revoked_until" timestamptz(3) not null, primary key ("session_id"));`,
    );
    this.addSql(
      `create index "supabase_revoked_sessions_revoked_until_index" on "supabase_revoked_sessions" ("revoked_until");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "supabase_issued_refresh_tokens" cascade;`);
    this.addSql(`drop table if exists "supabase_revoked_sessions" cascade;`);
  }
}
