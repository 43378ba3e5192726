import {
  describeProjectRepositoryContract,
  InMemoryMemberRepository,
  InMemoryProjectRepository,
  InMemoryUserRepository,
} from '@browserdeck/testing';
import { assertProblem, createTestApp } from '@browserdeck/testing/adapters';
import { expect, it } from 'vitest';

/**
 * Run by vitest inside the scratch host, on the packed `@browserdeck/testing` as a consumer installs
 * it: a port's contract suite against an implementation (here the kit's own in-memory one stands in
 * for the consumer's), and the HTTP test app over in-memory ports. `packages/testing/README.md` shows
 * the same code.
 */
describeProjectRepositoryContract('InMemoryProjectRepository', {
  create: async () => {
    const users = new InMemoryUserRepository();
    const projects = new InMemoryProjectRepository({ users });
    return { projects, users, members: new InMemoryMemberRepository({ projects }) };
  },
});

it('serves the real HTTP API over in-memory ports', async () => {
  const app = await createTestApp();
  try {
    const { accessToken: token } = await app.signUpAndIn('ada@example.com');
    const created = await app.request('/v1/projects', { method: 'POST', token, json: { name: 'Kit' } });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ name: 'Kit', slug: 'kit' });
    await assertProblem(await app.request('/v1/projects'), 401, 'unauthorized');
  } finally {
    await app.close();
  }
});
