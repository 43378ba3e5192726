import { describe, expect, it } from 'vitest';
import { decodeFrame, encodeFrame } from './encodeFrame.ts';
import { readFrameMetadata } from './FrameMetadata.ts';

describe('encodeFrame', () => {
  it('puts a length, the JSON header and the decoded JPEG bytes in one buffer', () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]);
    const metadata = readFrameMetadata({ deviceWidth: 800, deviceHeight: 600, timestamp: 12.5 })!;
    const frame = encodeFrame('TAB1', metadata, jpeg.toString('base64'));
    const headerLength = frame.readUInt32BE(0);
    expect(JSON.parse(frame.subarray(4, 4 + headerLength).toString('utf8'))).toEqual({
      pageId: 'TAB1',
      deviceWidth: 800,
      deviceHeight: 600,
      offsetTop: 0,
      pageScaleFactor: 1,
      scrollOffsetX: 0,
      scrollOffsetY: 0,
      timestamp: 12.5,
    });
    expect(frame.subarray(4 + headerLength)).toEqual(jpeg);
    expect(decodeFrame(frame)).toEqual({ header: { pageId: 'TAB1', ...metadata }, jpeg });
  });
});

describe('readFrameMetadata', () => {
  it('is null without a screen size, and fills what a browser left out', () => {
    expect(readFrameMetadata(null)).toBeNull();
    expect(readFrameMetadata({ deviceWidth: 0, deviceHeight: 600 })).toBeNull();
    expect(
      readFrameMetadata({ deviceWidth: 800, deviceHeight: 600, offsetTop: 'x', pageScaleFactor: Number.NaN }),
    ).toEqual({
      deviceWidth: 800,
      deviceHeight: 600,
      offsetTop: 0,
      pageScaleFactor: 1,
      scrollOffsetX: 0,
      scrollOffsetY: 0,
      timestamp: 0,
    });
  });
});
