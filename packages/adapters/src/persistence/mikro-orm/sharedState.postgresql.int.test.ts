import { describeMikroOrmSharedState } from '../../../../../test/describeMikroOrmSharedState.ts';

describeMikroOrmSharedState('postgresql');
