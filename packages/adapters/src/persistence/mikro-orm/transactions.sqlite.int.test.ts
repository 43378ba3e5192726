import { describeMikroOrmTransactions } from '../../../../../test/describeMikroOrmTransactions.ts';

describeMikroOrmTransactions('sqlite');
