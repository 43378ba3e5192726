export {
  describeBrowserIsolationContract,
  type IsolationHarness,
  SERVICE_SECRET_VARIABLE,
} from '../../testing/describeBrowserIsolationContract.ts';
export {
  browserRequest,
  eventually,
  requireChromium,
  startConnectServer,
  startLocalProvider,
  startPageServer,
} from './localChromiumTestKit.ts';
