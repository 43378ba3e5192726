import { describeMikroOrmSessionStorage } from '../../../../../test/describeMikroOrmSessionStorage.ts';

describeMikroOrmSessionStorage('sqlite');
