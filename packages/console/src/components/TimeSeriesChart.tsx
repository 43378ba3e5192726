import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { ProblemAlert } from './ProblemAlert.tsx';

/** Props of `TimeSeriesChart`. */
export interface TimeSeriesChartProps {
  /** The figure's caption and accessible name, e.g. "Sessions created". */
  title: string;
  /** Bucket starts, in epoch seconds. */
  times: number[];
  values: number[];
  /** Name of the values in the legend and the table, e.g. "Sessions". */
  seriesLabel: string;
  /** How a value reads in the legend, the axis and the table. */
  format?: (value: number) => string;
  color: string;
  /** Bar width in seconds (the bucket size), so bars fill their bucket. */
  bucketSec: number;
}

const HEIGHT = 220;
const MIN_WIDTH = 280;

/**
 * A bar chart over time drawn by uPlot on a canvas, in a `<figure>` named by its caption. The same
 * numbers follow as a table for screen readers and keyboard users (a canvas says nothing).
 */
export function TimeSeriesChart({
  title,
  times,
  values,
  seriesLabel,
  format,
  color,
  bucketSec,
}: TimeSeriesChartProps) {
  const captionId = useId();
  const host = useRef<HTMLDivElement>(null);
  const [failure, setFailure] = useState<unknown>(undefined);
  const fmt = format ?? String;
  // The chart reads the formatter through a ref: a new function each render must not redraw it.
  const fmtRef = useRef(fmt);
  fmtRef.current = fmt;

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    let chart: { resize(width: number): void; destroy(): void } | undefined;
    let gone = false;
    const observer = new ResizeObserver(() => chart?.resize(Math.max(MIN_WIDTH, element.clientWidth)));
    import('./drawBarChart.ts').then(
      ({ drawBarChart }) => {
        if (gone) return;
        chart = drawBarChart(element, {
          times,
          values,
          seriesLabel,
          color,
          bucketSec,
          format: (value) => fmtRef.current(value),
          width: Math.max(MIN_WIDTH, element.clientWidth),
          height: HEIGHT,
        });
        element.dataset.rendered = 'true';
        observer.observe(element);
      },
      (error: unknown) => setFailure(error),
    );
    return () => {
      gone = true;
      observer.disconnect();
      chart?.destroy();
      delete element.dataset.rendered;
    };
  }, [times, values, seriesLabel, color, bucketSec]);

  return (
    <figure class="chart" aria-labelledby={captionId}>
      <figcaption id={captionId}>{title}</figcaption>
      <div ref={host} class="chart-canvas" aria-hidden="true" />
      <ProblemAlert error={failure} />
      <details>
        <summary>{title} as a table</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">From</th>
              <th scope="col">{seriesLabel}</th>
            </tr>
          </thead>
          <tbody>
            {times.map((time, i) => (
              <tr key={time}>
                <td>{new Date(time * 1000).toLocaleString()}</td>
                <td>{fmt(values[i] ?? 0)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
