/**
 * The zero-latency Browserbase stand-in (`test/browserbaseStandIn.ts`) as a process of its own, so
 * the benchmark's load does not share its event loop:
 *
 *   PORT=4001 node bench/browserbaseStandIn.ts
 */
import { createBrowserbaseStandIn } from '../test/browserbaseStandIn.ts';

const { server } = createBrowserbaseStandIn();
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
