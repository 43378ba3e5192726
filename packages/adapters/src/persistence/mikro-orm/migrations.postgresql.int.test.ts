import { describeMikroOrmMigrations } from '../../../../../test/describeMikroOrmMigrations.ts';

describeMikroOrmMigrations('postgresql');
