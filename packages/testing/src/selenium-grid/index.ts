export * from './seleniumGridPrerequisites.ts';
export * from './startSeleniumGrid.ts';
