import { describeMikroOrmRepositories } from '../../../../../test/describeMikroOrmRepositories.ts';

describeMikroOrmRepositories('postgresql');
