import './intlSafeLanguage.ts';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** What a bar chart shows. */
export interface BarChartSpec {
  /** Bucket starts, in epoch seconds. */
  times: number[];
  values: number[];
  seriesLabel: string;
  color: string;
  /** Bucket size in seconds: the x range ends one bucket after the last start. */
  bucketSec: number;
  format: (value: number) => string;
  width: number;
  height: number;
}

/** A drawn chart: resize it with its container, destroy it when it goes. */
export interface DrawnChart {
  resize(width: number): void;
  destroy(): void;
}

/**
 * Draws a bar chart over time with uPlot into `element`. A module of its own, loaded when a chart is
 * first shown, so the console's first screens do not wait for the chart library.
 */
export function drawBarChart(element: HTMLElement, spec: BarChartSpec): DrawnChart {
  const bars = uPlot.paths.bars?.({ size: [0.8, 64], align: 1 });
  const chart = new uPlot(
    {
      width: spec.width,
      height: spec.height,
      scales: {
        x: { time: true, range: (_u, min, max) => [min, max + spec.bucketSec] },
        y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
      },
      series: [
        {},
        {
          label: spec.seriesLabel,
          stroke: spec.color,
          fill: `${spec.color}99`,
          width: 1,
          ...(bars ? { paths: bars } : {}),
          points: { show: false },
          value: (_u, value) => (value === null || value === undefined ? '–' : spec.format(value)),
        },
      ],
      // Wide enough for the longest label a format gives ("59.9 min": about 52 px at uPlot's 12 px font,
      // plus its ticks and gap); at 60 px, "16.7 min" lost its first digit to the canvas' edge.
      axes: [{}, { values: (_u, ticks) => ticks.map((tick) => spec.format(tick)), size: 80 }],
      legend: { live: true },
    },
    [spec.times, spec.values],
    element,
  );
  return {
    resize: (width) => chart.setSize({ width, height: spec.height }),
    destroy: () => chart.destroy(),
  };
}
