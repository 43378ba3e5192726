import { describeMikroOrmSessionShares } from '../../../../../test/describeMikroOrmSessionShares.ts';

describeMikroOrmSessionShares('sqlite');
