export * from './SeleniumGridProvider.ts';
export * from './SeleniumGridProviderOptions.ts';
export { GRID_FULL_RETRY_AFTER_SEC } from './toGridProviderError.ts';
