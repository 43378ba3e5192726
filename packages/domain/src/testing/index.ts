export {
  describeProjectRepositoryContract,
  type ProjectRepositoryFixture,
} from './describeProjectRepositoryContract.ts';
export { describeUserRepositoryContract } from './describeUserRepositoryContract.ts';
export { InMemoryIdentityProvider } from './InMemoryIdentityProvider.ts';
export { InMemoryProjectRepository } from './InMemoryProjectRepository.ts';
export { InMemoryUserRepository } from './InMemoryUserRepository.ts';
export { ManualClock } from './ManualClock.ts';
export { SequentialIdGenerator } from './SequentialIdGenerator.ts';
