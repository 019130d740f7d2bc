// How long GET /api/v1/health takes while POST /api/v1/import/clients writes 10,000 rows: the server's
// event loop must keep turning during an import. Real HTTP over loopback, server in this process (its
// event loop is the one measured). Run: node --import tsx bench/import-health.ts
import { startBenchServer } from './lib';

const ROWS = 10_000;

const server = await startBenchServer();
try {
  const { identity, segmentsRepository } = server.container;
  const { generateToken, hashToken } = await import('../apps/server/src/platform/tokens');
  const role = await identity.findRoleByName('admin');
  const userId = await identity.createUser({
    name: 'Bench Admin',
    email: 'bench-import-health@hablabot.local',
    passwordHash: 'unused',
    roleIds: [role!.id],
    newCompanyName: 'Bench import company',
  });
  const companyId = (await identity.findUserById(userId))!.company_id!;
  const token = generateToken();
  await identity.createToken(userId, hashToken(token), 60 * 60 * 1000);
  const segments = ['VIP', 'Leads', 'Clientes Únicos', 'Newsletter', 'Mayoristas'];
  for (const name of segments)
    await segmentsRepository.createSegment(companyId, { name, color: '#7300ff', rules: 'bench' });
  const body = JSON.stringify({
    clients: Array.from({ length: ROWS }, (_, i) => ({
      nombre: `Cliente ${i}`,
      apellidos: 'García López',
      celular: `+34 6${String(i).padStart(8, '0')}`,
      correo: `cliente${i}@example.test`,
      segmentos: `${segments[i % 5]}; ${segments[(i + 1) % 5]}`,
    })),
  });

  for (const label of ['all new', 'same file again, all updates']) {
    let running = true;
    const health: number[] = [];
    const poller = (async () => {
      while (running) {
        const t0 = performance.now();
        await fetch(`${server.url}/api/v1/health`).then((r) => r.arrayBuffer());
        health.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const t0 = performance.now();
    const res = await fetch(`${server.url}/api/v1/import/clients`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
    const data = (await res.json()) as { data: { success: unknown[] } };
    const seconds = (performance.now() - t0) / 1000;
    running = false;
    await poller;
    if (res.status !== 200 || data.data.success.length !== ROWS)
      throw new Error(`import answered ${res.status}`);
    health.sort((a, b) => a - b);
    const p = (q: number) => health[Math.min(health.length - 1, Math.floor(q * health.length))].toFixed(0);
    console.log(
      `import ${ROWS} rows (${label}) in ${seconds.toFixed(2)} s; /health meanwhile: ${health.length} answers, p50 ${p(0.5)} ms, p95 ${p(0.95)} ms, max ${health[health.length - 1].toFixed(0)} ms`,
    );
  }
} finally {
  await server.close();
}
