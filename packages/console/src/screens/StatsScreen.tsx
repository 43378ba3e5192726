import { useMemo, useState } from 'preact/hooks';
import { SESSION_STATUSES } from '../api/types.ts';
import { useConsole } from '../app/ConsoleContext.ts';
import { chartColumns, STATS_PERIODS, type StatsPeriod, statsWindow } from '../app/statsSeries.ts';
import { useResource } from '../app/useResource.ts';
import { formatDuration } from '../components/formatting.ts';
import { ProblemAlert } from '../components/ProblemAlert.tsx';
import { TimeSeriesChart } from '../components/TimeSeriesChart.tsx';

const BUCKET_SEC = { hour: 3600, day: 86_400 } as const;
/** Browser time in the unit that suits its size, to one decimal: `12 s`, `4.5 min`, `2 h`. */
function formatBrowserTime(sec: number): string {
  const [value, unit] = sec < 60 ? [sec, 's'] : sec < 3600 ? [sec / 60, 'min'] : [sec / 3600, 'h'];
  return `${Math.round(value * 10) / 10} ${unit}`;
}

/**
 * A project's session statistics: the numbers of `GET …/sessions/dashboard/stats`, and charts of
 * sessions created and browser time per hour or day from the same endpoint's `series`.
 */
export function StatsScreen({ projectId }: { projectId: string }) {
  const { api } = useConsole();
  const [periodId, setPeriodId] = useState<StatsPeriod['id']>('24h');
  const period = STATS_PERIODS.find((p) => p.id === periodId) ?? STATS_PERIODS[0];
  const totals = useResource(() => api.sessions.stats(projectId), projectId);
  const [loadedAt, setLoadedAt] = useState(() => Date.now());
  const range = useMemo(() => statsWindow(period, loadedAt), [period, loadedAt]);
  const series = useResource(
    () => api.sessions.series(projectId, period.interval, range.from, range.to),
    `${projectId}|${period.id}|${range.to.getTime()}`,
  );
  const columns = useMemo(
    () => (series.data?.series ? chartColumns(series.data.series, range, period.interval) : undefined),
    [series.data, range, period.interval],
  );
  const stats = totals.data;

  return (
    <>
      <div class="section-head">
        <h1 tabIndex={-1}>Stats</h1>
        <button
          type="button"
          class="secondary"
          onClick={async () => {
            setLoadedAt(Date.now());
            await totals.reload();
          }}
        >
          Refresh stats
        </button>
      </div>
      <ProblemAlert error={totals.error} />
      {stats ? (
        <section aria-labelledby="stats-totals" class="panel">
          <h2 id="stats-totals">Totals</h2>
          <dl class="numbers">
            <div>
              <dt>Sessions</dt>
              <dd>{stats.total}</dd>
            </div>
            {SESSION_STATUSES.map((status) => (
              <div key={status}>
                <dt>{status}</dt>
                <dd>{stats.byStatus[status] ?? 0}</dd>
              </div>
            ))}
            <div>
              <dt>Created in the last 24 h</dt>
              <dd>{stats.createdLast24h}</dd>
            </div>
            <div>
              <dt>Average duration</dt>
              <dd>{formatDuration(stats.avgDurationSec)}</dd>
            </div>
            <div>
              <dt>Browser time</dt>
              <dd>{formatDuration(stats.totalBrowserSec)}</dd>
            </div>
          </dl>
        </section>
      ) : totals.loading ? (
        <p aria-busy="true">Loading stats…</p>
      ) : null}
      <section aria-labelledby="stats-over-time" class="panel">
        <div class="section-head">
          <h2 id="stats-over-time">Over time</h2>
          <div class="field field-inline">
            <label for="stats-period">Period</label>
            <select
              id="stats-period"
              value={period.id}
              onChange={(e) => setPeriodId(e.currentTarget.value as StatsPeriod['id'])}
            >
              {STATS_PERIODS.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.label} (per {p.interval})
                </option>
              ))}
            </select>
          </div>
        </div>
        <ProblemAlert error={series.error} />
        {columns ? (
          <div class="charts">
            <TimeSeriesChart
              title="Sessions created"
              seriesLabel="Sessions"
              times={columns.times}
              values={columns.created}
              color="#1d4ed8"
              bucketSec={BUCKET_SEC[period.interval]}
            />
            <TimeSeriesChart
              title="Browser time"
              seriesLabel="Browser time"
              times={columns.times}
              values={columns.browserSec}
              format={formatBrowserTime}
              color="#047857"
              bucketSec={BUCKET_SEC[period.interval]}
            />
          </div>
        ) : series.data ? (
          <p class="empty">This server's stats answer has no series over time.</p>
        ) : series.loading ? (
          <p aria-busy="true">Loading the series…</p>
        ) : null}
      </section>
    </>
  );
}
