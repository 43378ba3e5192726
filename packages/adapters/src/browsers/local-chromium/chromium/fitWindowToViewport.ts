import { ProviderError, type SessionViewport } from '@browserdeck/domain';
import { CdpClient } from '../../cdp/CdpClient.ts';
import type { CdpRouter } from '../cdp/CdpRouter.ts';

/** The page size of a browser launched without `--window-size`, on every build (http-api.md, `viewport`). */
export const DEFAULT_WINDOW_SIZE: SessionViewport = { width: 800, height: 600 };

/** The headless shell names itself so in `Browser.getVersion`; a full Chromium says `Chrome/…`. */
const HEADLESS_SHELL_PRODUCT = 'HeadlessChrome/';
/** Resizes tried before giving up (one is enough unless the window's frame changes meanwhile). */
const MAX_RESIZES = 3;
const FIT_TIMEOUT_MS = 15_000;

/**
 * Makes the first page's viewport (`innerWidth` × `innerHeight`) `size`, before anyone else uses
 * the browser. The headless shell (`@sparticuz/chromium`) has no window frame: its window is its
 * page, so `--window-size` is the viewport already and nothing is done. A full Chromium in new
 * headless mode draws a browser window (tab strip and toolbar, 87 px high on Chromium 156) inside
 * `--window-size`, so its page comes out smaller: the page is measured, the window grown by the
 * difference (`Browser.setWindowBounds`; both builds also have `Browser.setContentsSize`, but it is
 * experimental and older Chromes lack it), and measured again. Tabs opened later in that window
 * share its frame, so they get the same viewport. Works on its own router client, so the provider's
 * log recorder never sees its page session. `provider_unavailable` when the page cannot be made to
 * fit.
 */
export async function fitWindowToViewport(router: CdpRouter, size: SessionViewport): Promise<void> {
  const client = new CdpClient();
  client.attach(await router.openClient(client.receive, client.receiveClose));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(unfit(`the browser did not answer within ${FIT_TIMEOUT_MS / 1000} s`)),
      FIT_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([fitPage(client, size), timeout]);
  } finally {
    clearTimeout(timer);
    client.close();
  }
}

async function fitPage(client: CdpClient, size: SessionViewport): Promise<void> {
  const { product } = await client.send('Browser.getVersion');
  if (String(product).startsWith(HEADLESS_SHELL_PRODUCT)) return;
  const { targetInfos } = await client.send('Target.getTargets');
  const page = (targetInfos as Array<{ targetId: string; type: string }>).find((t) => t.type === 'page');
  if (!page) throw unfit('the browser has no page');
  const { sessionId } = await client.send('Target.attachToTarget', {
    targetId: page.targetId,
    flatten: true,
  });
  const measure = async (): Promise<SessionViewport> => {
    const { result } = await client.send(
      'Runtime.evaluate',
      { expression: '[innerWidth, innerHeight]', returnByValue: true },
      String(sessionId),
    );
    const [width, height] = (result as { value: [number, number] }).value;
    return { width, height };
  };
  let inner = await measure();
  for (let i = 0; i < MAX_RESIZES && !sameSize(inner, size); i++) {
    const { windowId, bounds } = await client.send('Browser.getWindowForTarget', { targetId: page.targetId });
    const outer = bounds as { width: number; height: number };
    await client.send('Browser.setWindowBounds', {
      windowId,
      bounds: {
        width: outer.width + size.width - inner.width,
        height: outer.height + size.height - inner.height,
      },
    });
    inner = await measure();
  }
  if (!sameSize(inner, size))
    throw unfit(`its page is ${inner.width}×${inner.height} after ${MAX_RESIZES} resizes (${product})`);
}

function sameSize(a: SessionViewport, b: SessionViewport): boolean {
  return a.width === b.width && a.height === b.height;
}

function unfit(reason: string): ProviderError {
  return new ProviderError(
    'provider_unavailable',
    `The browser's window could not be fitted to its viewport: ${reason}`,
  );
}
