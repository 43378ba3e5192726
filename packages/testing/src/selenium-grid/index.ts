export * from './gridProviderKit.ts';
export * from './seleniumGridPrerequisites.ts';
export * from './startSeleniumGrid.ts';
