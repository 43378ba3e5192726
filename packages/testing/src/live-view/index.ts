export * from './fakeCdpBrowser.ts';
export * from './LiveViewerClient.ts';
export * from './liveViewTestKit.ts';
