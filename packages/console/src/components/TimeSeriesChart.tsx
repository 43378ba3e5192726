import { useEffect, useId, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

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
  const fmt = format ?? String;
  // The chart reads the formatter through a ref: a new function each render must not rebuild it.
  const fmtRef = useRef(fmt);
  fmtRef.current = fmt;

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const width = Math.max(280, element.clientWidth);
    const bars = uPlot.paths.bars?.({ size: [0.8, 64], align: 1 });
    const chart = new uPlot(
      {
        width,
        height: 220,
        scales: {
          x: { time: true, range: (_u, min, max) => [min, max + bucketSec] },
          y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
        },
        series: [
          {},
          {
            label: seriesLabel,
            stroke: color,
            fill: `${color}99`,
            width: 1,
            ...(bars ? { paths: bars } : {}),
            points: { show: false },
            value: (_u, value) => (value === null || value === undefined ? '–' : fmtRef.current(value)),
          },
        ],
        axes: [{}, { values: (_u, ticks) => ticks.map((tick) => fmtRef.current(tick)), size: 60 }],
        legend: { live: true },
      },
      [times, values],
      element,
    );
    const observer = new ResizeObserver(() => {
      chart.setSize({ width: Math.max(280, element.clientWidth), height: 220 });
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [times, values, seriesLabel, color, bucketSec]);

  return (
    <figure class="chart" aria-labelledby={captionId}>
      <figcaption id={captionId}>{title}</figcaption>
      <div ref={host} class="chart-canvas" aria-hidden="true" />
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
