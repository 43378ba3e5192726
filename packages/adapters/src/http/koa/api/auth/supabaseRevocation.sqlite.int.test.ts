import { describeSupabaseRevocationAcrossInstances } from '../../../../../../../test/describeSupabaseRevocationAcrossInstances.ts';

describeSupabaseRevocationAcrossInstances('sqlite');
