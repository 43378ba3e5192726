/**
 * The framework's ceiling: a bare Koa app answering `GET /v1/projects` with a constant 20-project
 * list of the API's shape, and `GET /healthz`. No auth, no database, no middleware.
 *
 *   PORT=4000 node bench/bareKoaServer.ts
 */
import Koa from 'koa';

const now = new Date('2026-01-01T00:00:00.000Z').getTime();
const projects = Array.from({ length: 20 }, (_, i) => {
  const at = new Date(now + i * 1000).toISOString();
  return {
    id: `0197f3a0-11aa-7bbb-8ccc-${String(i).padStart(12, '0')}`,
    name: `Bench project ${i}`,
    slug: `bench-project-${i}`,
    archived: false,
    created_at: at,
    updated_at: at,
  };
}).reverse();

const app = new Koa();
app.use((ctx) => {
  if (ctx.path === '/healthz') ctx.body = { status: 'ok' };
  else if (ctx.path === '/v1/projects') ctx.body = projects;
  else ctx.status = 404;
});
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
