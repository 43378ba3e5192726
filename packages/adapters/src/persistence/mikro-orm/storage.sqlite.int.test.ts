import { describeMikroOrmStorage } from '../../../../../test/describeMikroOrmStorage.ts';

describeMikroOrmStorage('sqlite');
