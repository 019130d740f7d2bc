// Sign-in cost (scrypt) and the per-request cost of a bearer token (lookup + role load), over real HTTP.
import { startBenchServer, measure, report } from './lib';

const server = await startBenchServer();
try {
  const { identity } = server.container;
  const role = await identity.findRoleByName('super_admin');
  const { hashPassword } = await import('../apps/server/src/platform/passwords');
  await identity.createUser({
    name: 'Bench',
    email: 'bench@hablabot.local',
    passwordHash: await hashPassword('bench-password'),
    roleIds: [role!.id],
  });
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  let token = '';
  const login = await measure(100, 4, async () => {
    const res = await post({ email: 'bench@hablabot.local', password: 'bench-password' });
    token = (await res.json()).token;
  });
  report('login (scrypt N=2^15)', login);

  const authed = await measure(5000, 32, async () => {
    const res = await fetch(`${server.url}/api/v1/super-admin/roles`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.status !== 200) throw new Error(`status ${res.status}`);
    await res.arrayBuffer();
  });
  report('authenticated GET /super-admin/roles', authed);
} finally {
  await server.close();
}
