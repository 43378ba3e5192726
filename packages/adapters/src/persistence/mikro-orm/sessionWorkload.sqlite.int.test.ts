import { describeMikroOrmSessionWorkload } from '../../../../../test/describeMikroOrmSessionWorkload.ts';

describeMikroOrmSessionWorkload('sqlite');
