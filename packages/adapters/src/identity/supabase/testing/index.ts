export { FakeGoTrue } from './FakeGoTrue.ts';
