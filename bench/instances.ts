/**
 * Scenario `instances` (issue 26 §6): several instances and the Selenium Grid provider.
 *
 * - forwarding (bench/instancesForwarding.ts): two local-provider instances on one PostgreSQL; a
 *   request and a CDP round trip on the session's holder against the same through the other
 *   instance, which carries them to the holder (ADR 0024), with the hop alone and server CPU;
 * - Grid (bench/instancesGrid.ts, unless BENCH_INSTANCES_GRID=0): a real Grid 4, hub + 2 nodes;
 *   create → connected → first evaluate through Browserdeck against the Grid's own new session,
 *   and sessions created per second through 1 instance and through 2.
 *
 * A Grid that cannot start here (no Java, no ChromeDriver) leaves the forwarding figures standing
 * and says why in the section.
 */
import { loadavg } from 'node:os';
import type { GridFigures, InstancesFigures, InstancesOptions, RatePhase } from './instancesFigures.ts';
import { measureForwarding } from './instancesForwarding.ts';
import { measureGrid } from './instancesGrid.ts';
import { instancesMarkdown } from './instancesMarkdown.ts';
import { measureStandInRate } from './instancesStandIn.ts';

export { INSTANCES_TARGETS, instancesHeadline } from './instancesFigures.ts';

export interface InstancesResult {
  figures: InstancesFigures;
  markdown: string;
}

export async function runInstancesBench(options: InstancesOptions): Promise<InstancesResult> {
  const started = new Date();
  const loadStart = loadavg()[0]!;
  options.log('  [instances] forwarding: two local-provider instances on one PostgreSQL');
  const forwarding = await measureForwarding(options);
  let grid: GridFigures | null = null;
  let gridError: string | null = null;
  let standIn: RatePhase[] | null = null;
  let standInError: string | null = null;
  if (options.grid) {
    options.log(
      '  [instances] Selenium Grid: hub + 2 nodes, two instances with BROWSER_PROVIDER=selenium-grid',
    );
    try {
      grid = await measureGrid(options);
    } catch (error) {
      gridError = firstLine(error);
      options.log(
        `  [instances] Grid part FAILED: ${error instanceof Error ? error.message.slice(0, 2000) : error}`,
      );
    }
  }
  if (options.grid) {
    options.log(
      '  [instances] Grid provider on a zero-latency Grid stand-in: sessions per second, 1 and 2 instances',
    );
    try {
      standIn = await measureStandInRate(options);
    } catch (error) {
      standInError = firstLine(error);
      options.log(
        `  [instances] stand-in part FAILED: ${error instanceof Error ? error.message.slice(0, 2000) : error}`,
      );
    }
  }
  const figures: InstancesFigures = {
    forwarding,
    grid,
    gridError,
    standIn,
    standInError,
    loads: { start: loadStart, end: loadavg()[0]! },
  };
  return { figures, markdown: instancesMarkdown(figures, options, started) };
}

const firstLine = (error: unknown) =>
  error instanceof Error ? (error.message.split('\n')[0] ?? '').slice(0, 400) : String(error);
