// The live view (http-api.md §14): the hub that screencasts a session's tabs to its viewers, and the
// frame format those viewers decode. Hosts compose it through `createBrowserdeck`; this subpath is
// for a host or a test that drives the hub or reads its frames itself.
export type { CdpCommand } from '../cdp/cdpMessages.ts';
export { decodeFrame, encodeFrame } from './encodeFrame.ts';
export type { FrameMetadata } from './FrameMetadata.ts';
export { REVOKED_REASON, VIEWER_CLOSE } from './LiveViewer.ts';
export type { LivePage, LiveViewerOptions, LiveViewHub } from './LiveViewHub.ts';
