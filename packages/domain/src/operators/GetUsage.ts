import type { Caller } from '../access/Caller.ts';
import type { OperatorsDeps } from './operatorsDeps.ts';
import { requireOperator } from './requireOperator.ts';
import type { AccountUsage } from './UsageRepository.ts';

/** Usage per account (browser seconds, sessions, runs, proxy bytes), most browser time first (SPEC §17; operators). */
export class GetUsage {
  private readonly deps: Pick<OperatorsDeps, 'users' | 'admission' | 'usage' | 'clock'>;

  constructor(deps: Pick<OperatorsDeps, 'users' | 'admission' | 'usage' | 'clock'>) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller }): Promise<AccountUsage[]> {
    await requireOperator(this.deps, input.caller);
    return this.deps.usage.usageOfAll(this.deps.clock.now());
  }
}
