import { describeMikroOrmRunStorage } from '../../../../../test/describeMikroOrmRunStorage.ts';

describeMikroOrmRunStorage('postgresql');
