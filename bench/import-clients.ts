// Client import (POST /import/clients) with 10,000 CSV rows, first run (creates) and second run (updates),
// then the chat list (GET /admin/client/messages-summary, pages of 1000 and 50) with 50,000 clients in the company.
// Run: node --import tsx bench/import-clients.ts   (DATABASE_URL=postgres://… for PostgreSQL)
import { sql } from 'kysely';
import { addConversations, measure, report, startBenchServer } from './lib';

const ROWS = 10_000;
const CHAT_CLIENTS = 50_000;

const server = await startBenchServer();
try {
  const { identity, segmentsRepository, clientsRepository, db } = server.container;
  const { generateToken, hashToken } = await import('../apps/server/src/platform/tokens');
  const role = await identity.findRoleByName('admin');
  const userId = await identity.createUser({
    name: 'Bench Admin',
    email: 'bench-admin@hablabot.local',
    passwordHash: 'unused',
    roleIds: [role!.id],
    newCompanyName: 'Bench company',
  });
  const companyId = (await identity.findUserById(userId))!.company_id!;
  const token = generateToken();
  await identity.createToken(userId, hashToken(token), 60 * 60 * 1000);
  const headers = { authorization: `Bearer ${token}` };

  const segmentNames = ['VIP', 'Leads', 'Clientes Únicos', 'Newsletter', 'Mayoristas'];
  for (const name of segmentNames)
    await segmentsRepository.createSegment(companyId, { name, color: '#7300ff', rules: 'bench' });

  // As Papa Parse hands them over: Spanish headers, BOM on the first one, phones as people type them.
  const rows = Array.from({ length: ROWS }, (_, i) => ({
    '\uFEFFNombre': `Cliente ${i}`,
    Apellidos: 'García López',
    Teléfono: `+34 6${String(i)
      .padStart(8, '0')
      .replace(/(\d{2})(\d{3})(\d{3})/, '$1 $2 $3')}`,
    Correo: `cliente${i}@example.test`,
    Proyectos: i % 3 === 0 ? 'Reforma integral' : '',
    Segmentos: `${segmentNames[i % 5].toLowerCase()}; ${segmentNames[(i + 1) % 5]}`,
  }));
  const body = JSON.stringify({ clients: rows });

  const importOnce = async (label: string) => {
    const t0 = performance.now();
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/import/clients',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: body,
    });
    const ms = performance.now() - t0;
    if (res.statusCode !== 200)
      throw new Error(`import answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
    const data = res.json().data;
    console.log(
      `import ${ROWS} rows (${label}): ${(ms / 1000).toFixed(2)} s, ${data.success.length} ok, ${data.error.length} errors; body ${(body.length / 1e6).toFixed(1)} MB (budget: < 5 s on SQLite)`,
    );
    if (data.success.length !== ROWS)
      throw new Error(`expected ${ROWS} successes: ${JSON.stringify(data.error[0])}`);
  };
  await importOnce('all new');
  await importOnce('same file again, all updates');

  // Chat list: top up the company to 50,000 clients, a third of them with a conversation.
  const segmentIds = (await segmentsRepository.listSegments(companyId)).map((s) => s.id);
  const extra = Array.from({ length: CHAT_CLIENTS - ROWS }, (_, i) => ({
    name: `Chat ${i}`,
    last_names: 'Bench',
    whatsapp_cellphone: `52155${String(i).padStart(8, '0')}`,
    email: `chat${i}@example.test`,
    projects: null,
  }));
  for (let i = 0; i < extra.length; i += 2000) {
    const part = extra.slice(i, i + 2000);
    await server.container.withTransaction(async (tx) => {
      const idOfPhone = await tx.clientsRepository.upsertImported(companyId, part);
      for (const [k, segmentId] of segmentIds.entries()) {
        const members = part.filter((_, j) => (i + j) % segmentIds.length === k);
        await tx.segmentsRepository.addClientsToSegment(
          companyId,
          segmentId,
          members.map((c) => idOfPhone.get(c.whatsapp_cellphone)!),
        );
      }
    });
  }
  const ids = await db.selectFrom('clients').select('id').where('company_id', '=', companyId).execute();
  await addConversations(db, ids);

  // A live PostgreSQL has table statistics (autovacuum); a table filled a second ago has none yet.
  if (server.container.infra.database.engine === 'postgres') await sql`analyze`.execute(db);

  let size = 0;
  const summary = await measure(20, 1, async () => {
    const res = await server.app.inject({
      method: 'GET',
      url: '/api/v1/admin/client/messages-summary',
      headers,
    });
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
    size = res.body.length;
  });
  report(
    `GET messages-summary (default page of 1000), ${ids.length} clients (${(size / 1e6).toFixed(1)} MB)`,
    summary,
    'p95 < 100 ms',
  );

  const page = await measure(200, 1, async () => {
    const res = await server.app.inject({
      method: 'GET',
      url: '/api/v1/admin/client/messages-summary?per_page=50&page=3',
      headers,
    });
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
  });
  report(`GET messages-summary?per_page=50&page=3, ${ids.length} clients`, page, 'p95 < 100 ms');
  const search = await measure(50, 1, async () => {
    const res = await server.app.inject({
      method: 'GET',
      url: '/api/v1/admin/client/messages-summary?per_page=50&search=cliente%2012',
      headers,
    });
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
  });
  report(`GET messages-summary?per_page=50&search=cliente 12, ${ids.length} clients`, search);

  const t0 = performance.now();
  const n = 20;
  for (let i = 0; i < n; i++) await clientsRepository.listForChat(companyId, { limit: 1001, offset: 0 });
  console.log(
    `  of which the single SQL query of a page of 1000 (repository.listForChat): ${((performance.now() - t0) / n).toFixed(1)} ms on average`,
  );
} finally {
  await server.close();
}
