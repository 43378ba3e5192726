import { describeMikroOrmMigrations } from '../../../../../test/describeMikroOrmMigrations.ts';

describeMikroOrmMigrations('sqlite');
