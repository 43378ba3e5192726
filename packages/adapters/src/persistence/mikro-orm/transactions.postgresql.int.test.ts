import { describeMikroOrmTransactions } from '../../../../../test/describeMikroOrmTransactions.ts';

describeMikroOrmTransactions('postgresql');
