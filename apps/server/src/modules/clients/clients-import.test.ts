import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createSegment } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { type TestUser, createUser } from '../../../test/factories';
import { columnOf, readCells, segmentNames } from './clients-import';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

describe('import: reading rows', () => {
  it('matches Spanish and English headers, ignoring case, accents, spaces and a byte-order mark', () => {
    expect(columnOf('\uFEFFNombre')).toBe('name');
    expect(columnOf('NAME')).toBe('name');
    expect(columnOf('Apellidos')).toBe('last_names');
    expect(columnOf('last names')).toBe('last_names');
    expect(columnOf('Teléfono')).toBe('whatsapp_cellphone');
    expect(columnOf('Celular')).toBe('whatsapp_cellphone');
    expect(columnOf('WhatsApp')).toBe('whatsapp_cellphone');
    expect(columnOf('whatsapp_cellphone')).toBe('whatsapp_cellphone');
    expect(columnOf('Phone')).toBe('whatsapp_cellphone');
    expect(columnOf('Correo electrónico')).toBe('email');
    expect(columnOf('E-mail')).toBe('email');
    expect(columnOf('PROYECTOS')).toBe('projects');
    expect(columnOf('Segmento')).toBe('segments');
    expect(columnOf('segments')).toBe('segments');
    expect(columnOf('id')).toBeUndefined();
  });

  it('reads cells as text, prefers the first non-empty of two columns, and skips blank rows', () => {
    expect(readCells({ Nombre: ' Ana ', Celular: 34600111222, WhatsApp: '999', id: 7 })).toEqual({
      cells: {
        name: 'Ana',
        last_names: '',
        whatsapp_cellphone: '34600111222',
        email: '',
        projects: '',
        segments: '',
      },
      notText: [],
    });
    expect(readCells({ Celular: '', WhatsApp: '34600111222' })?.cells.whatsapp_cellphone).toBe('34600111222');
    expect(readCells({ Nombre: '', Celular: '  ', Correo: null })).toBeNull();
  });

  it('never reads an object or array cell as blank: its header is reported', () => {
    expect(readCells({ Nombre: { a: 1 }, Celular: [], Correo: '' })).toEqual({
      cells: { name: '', last_names: '', whatsapp_cellphone: '', email: '', projects: '', segments: '' },
      notText: ['Nombre', 'Celular'],
    });
    expect(readCells({ Nombre: 'Ana', extra: ['x'] })?.notText).toEqual(['extra']);
  });

  it('splits segment names on , ; and |, dropping blanks and repeats', () => {
    expect(segmentNames('VIP; Leads | Clientes Únicos, vip,,')).toEqual(['VIP', 'Leads', 'Clientes Únicos']);
    expect(segmentNames('')).toEqual([]);
  });
});

describe(`POST /import/clients (${engine})`, () => {
  let ctx: TestContext;
  let admin: TestUser;
  let companyId: number;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await createUser(ctx, { role: 'admin' });
    companyId = admin.user.company_id!;
  });
  afterAll(async () => {
    await ctx.close();
  });

  const post = (rows: unknown[], lang?: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/import/clients',
      headers: { ...admin.headers, ...(lang ? { 'accept-language': lang } : {}) },
      payload: { clients: rows },
    });

  const clientsByPhone = async (company = companyId) => {
    const { clients } = await ctx.container.clientsRepository.listClients(company, {
      limit: 10_000,
      offset: 0,
      sort: 'id',
      order: 'asc',
    });
    return new Map(clients.map((c) => [c.whatsapp_cellphone, c]));
  };

  it('imports good rows, reports bad ones with every reason, and never lets a bad row stop the others', async () => {
    const vip = await createSegment(ctx, companyId, { name: 'VIP' });
    const unicos = await createSegment(ctx, companyId, { name: 'Clientes Únicos' });
    const leads = await createSegment(ctx, companyId, { name: 'Leads' });

    // As Papa Parse gives a UTF-8 file saved by a spreadsheet: BOM glued to the first header, accents.
    const rows = [
      {
        '\uFEFFNombre': 'José',
        Apellidos: 'Núñez Peña',
        Teléfono: '+34 600-12-34-56',
        Correo: 'Jose@Example.test',
        Proyectos: 'Ático',
        Segmentos: 'vip; clientes unicos',
      },
      {
        '\uFEFFNombre': 'Marta',
        Apellidos: 'López',
        Teléfono: '34600999001',
        Correo: 'marta@',
        Segmentos: '',
      },
      {
        '\uFEFFNombre': 'Pablo',
        Apellidos: 'Sanz',
        Teléfono: '600',
        Correo: 'p@example.test',
        Segmentos: 'Leads',
      },
      { '\uFEFFNombre': '', Apellidos: '', Teléfono: '', Correo: '', Proyectos: '', Segmentos: '' },
      {
        '\uFEFFNombre': 'Inés',
        Apellidos: 'Mora',
        Teléfono: '34600999002',
        Correo: 'ines@example.test',
        Segmentos: 'Oro | Leads | Plata',
      },
      {
        '\uFEFFNombre': 'Pepe',
        Apellidos: 'Núñez',
        Teléfono: '0034 600 12 34 56',
        Correo: 'pepe@example.test',
        Segmentos: 'VIP',
      },
      {
        '\uFEFFNombre': 'Sara',
        Apellidos: 'Vidal',
        Teléfono: 34600999003,
        Correo: 'sara@example.test',
        Segmentos: 'LEADS',
      },
      { '\uFEFFNombre': '', Apellidos: '', Teléfono: 'abc', Correo: '', Segmentos: '' },
    ];
    const res = await post(rows);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data.success).toEqual([
      { row: 1, name: 'José Núñez Peña', action: 'created' },
      { row: 7, name: 'Sara Vidal', action: 'created' },
    ]);
    expect(body.data.error).toEqual([
      {
        row: 2,
        name: 'Marta López',
        message: 'El campo correo electrónico debe ser una dirección de correo válida.',
      },
      {
        row: 3,
        name: 'Pablo Sanz',
        message: 'El número de WhatsApp debe tener al menos 10 dígitos, con el código de país.',
      },
      {
        row: 5,
        name: 'Inés Mora',
        message: 'Segmento no encontrado: «Oro», «Plata». Créalo antes de importar o corrige el nombre.',
      },
      {
        row: 6,
        name: 'Pepe Núñez',
        message: 'El número 34600123456 está repetido en el archivo (ya está en la fila 1).',
      },
      {
        row: 8,
        name: 'abc',
        message: [
          'El campo nombre es obligatorio.',
          'El campo apellidos es obligatorio.',
          'El número de WhatsApp solo puede contener dígitos, con el código de país.',
          'El campo correo electrónico es obligatorio.',
        ].join(' '),
      },
    ]);
    expect(body.message).toBe('Importación completada: 2 creados, 0 actualizados, 5 con errores.');

    const stored = await clientsByPhone();
    expect(stored.get('34600123456')).toMatchObject({
      name: 'José',
      last_names: 'Núñez Peña',
      email: 'jose@example.test',
      projects: 'Ático',
      mode_bot: 1,
      segments: [
        { id: vip.id, name: 'VIP' },
        { id: unicos.id, name: 'Clientes Únicos' },
      ],
    });
    expect(stored.get('34600999003')?.segments.map((s) => s.id)).toEqual([leads.id]);
    for (const phone of ['34600999001', '34600999002']) expect(stored.has(phone)).toBe(false);
  });

  it('answers in English, with English headers', async () => {
    await createSegment(ctx, companyId, { name: 'Newsletter' });
    const res = await post(
      [
        {
          name: 'Emma',
          last_names: 'Stone',
          phone: '+44 7700 900123',
          email: 'emma@example.test',
          projects: '',
          segments: 'newsletter',
        },
        {
          name: 'Tom',
          last_names: 'Hardy',
          phone: '+44 7700 900124',
          email: 'tom@example.test',
          segments: 'Gold',
        },
      ],
      'en',
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: {
        success: [{ row: 1, name: 'Emma Stone', action: 'created' }],
        error: [
          {
            row: 2,
            name: 'Tom Hardy',
            message: 'Segment not found: «Gold». Create it before importing or correct the name.',
          },
        ],
      },
      message: 'Import finished: 1 created, 0 updated, 1 with errors.',
    });
    expect((await clientsByPhone()).get('447700900123')?.projects).toBeNull();
  });

  it('importing the same file twice creates no duplicates: the second run updates by phone', async () => {
    const seg = await createSegment(ctx, companyId, { name: 'Twice' });
    const rows = Array.from({ length: 30 }, (_, i) => ({
      nombre: `Persona ${i}`,
      apellidos: 'Repetida',
      celular: `+52 55 1000 ${String(i).padStart(4, '0')}`,
      correo: `persona${i}@example.test`,
      segmento: 'twice',
    }));
    const first = await post(rows);
    expect(first.json().data.error).toEqual([]);
    expect(first.json().data.success.every((s: { action: string }) => s.action === 'created')).toBe(true);
    const countAfterFirst = (await clientsByPhone()).size;

    const second = await post(rows);
    expect(second.statusCode).toBe(200);
    expect(second.json().data.error).toEqual([]);
    expect(second.json().data.success).toHaveLength(30);
    expect(second.json().data.success.every((s: { action: string }) => s.action === 'updated')).toBe(true);
    expect(second.json().message).toBe('Importación completada: 0 creados, 30 actualizados, 0 con errores.');
    expect((await clientsByPhone()).size).toBe(countAfterFirst);
    const links = await ctx.container.db
      .selectFrom('client_segments')
      .selectAll()
      .where('segment_id', '=', seg.id)
      .execute();
    expect(links).toHaveLength(30);
  });

  it('updates an existing client by phone: new fields, segments added (never removed), projects kept when blank', async () => {
    const a = await createSegment(ctx, companyId, { name: 'Alpha' });
    const b = await createSegment(ctx, companyId, { name: 'Beta' });
    const existing = await createClient(ctx, companyId, {
      name: 'Old',
      whatsapp_cellphone: '34622000001',
      projects: 'Keep me',
      segments: [a.id],
    });
    const res = await post([
      {
        Nombre: 'New',
        Apellidos: 'Name',
        WhatsApp: '+34 622 00 00 01',
        Email: 'new@example.test',
        Segmentos: 'Beta',
      },
    ]);
    expect(res.json().data.success).toEqual([{ row: 1, name: 'New Name', action: 'updated' }]);
    const after = (await clientsByPhone()).get('34622000001')!;
    expect(after).toMatchObject({
      id: existing.id,
      name: 'New',
      last_names: 'Name',
      email: 'new@example.test',
      projects: 'Keep me',
      segments: [
        { id: a.id, name: 'Alpha' },
        { id: b.id, name: 'Beta' },
      ],
    });
  });

  it("works inside the caller's company only: same phones in another company are other clients", async () => {
    const other = await createUser(ctx, { role: 'admin' });
    const otherCompany = other.user.company_id!;
    await createSegment(ctx, otherCompany, { name: 'Solo B' });
    await createClient(ctx, otherCompany, { name: 'B client', whatsapp_cellphone: '34633000001' });

    const res = await post([
      { nombre: 'A client', apellidos: 'X', celular: '34633000001', correo: 'a@example.test', segmentos: '' },
      {
        nombre: 'A two',
        apellidos: 'X',
        celular: '34633000002',
        correo: 'a2@example.test',
        segmentos: 'Solo B',
      },
    ]);
    expect(res.json().data.success).toEqual([{ row: 1, name: 'A client X', action: 'created' }]);
    expect(res.json().data.error.map((e: { row: number }) => e.row)).toEqual([2]);
    expect((await clientsByPhone(otherCompany)).get('34633000001')?.name).toBe('B client');
    expect((await clientsByPhone()).get('34633000001')?.name).toBe('A client');
  });

  it('refuses an empty upload and one with more than 10,000 rows', async () => {
    const empty = await post([]);
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toEqual({ clients: ['El archivo no contiene filas para importar.'] });
    const tooMany = await post(Array.from({ length: 10_001 }, () => ({ nombre: 'x' })));
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().errors).toEqual({
      clients: ['Se pueden importar como máximo 10.000 clientes por archivo.'],
    });
    const notRows = await post(['a', 1] as unknown[]);
    expect(notRows.statusCode).toBe(422);
  });

  it('accepts a body larger than the app-wide 10 MB limit on this route', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({ nombre: `${i}`, proyectos: 'x'.repeat(1100) }));
    const res = await post(rows);
    expect(JSON.stringify({ clients: rows }).length).toBeGreaterThan(10 * 1024 * 1024);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.error).toHaveLength(10_000);
    expect(res.json().data.success).toEqual([]);
  });

  it('a batch that fails at write time is redone row by row: only the failing row is reported, and nothing of it is kept', async () => {
    const seg = await createSegment(ctx, companyId, { name: 'Fragile' });
    // The database refuses to link one phone's client to a segment: the second write of that row fails
    // after its client was written, in the batch and again when the row is retried alone.
    const refused = '34644000002';
    const { db } = ctx.container;
    if (ctx.engine === 'postgres') {
      await sql`create function refuse_link() returns trigger language plpgsql as $$
        begin
          if (select whatsapp_cellphone from clients where id = new.client_id) = ${sql.lit(refused)} then
            raise exception 'link refused for the test';
          end if;
          return new;
        end $$`.execute(db);
      await sql`create trigger refuse_link before insert on client_segments
        for each row execute function refuse_link()`.execute(db);
    } else {
      await sql`create trigger refuse_link before insert on client_segments
        when (select whatsapp_cellphone from clients where id = new.client_id) = ${sql.lit(refused)}
        begin select raise(abort, 'link refused for the test'); end`.execute(db);
    }
    try {
      const row = (n: number) => ({
        nombre: `Row ${n}`,
        apellidos: 'X',
        celular: `3464400000${n}`,
        correo: `r${n}@example.test`,
        segmentos: 'fragile',
      });
      const res = await post([row(1), row(2), row(3)]);
      expect(res.json().data.success.map((s: { row: number }) => s.row)).toEqual([1, 3]);
      expect(res.json().data.error).toEqual([
        { row: 2, name: 'Row 2 X', message: 'No se pudo guardar esta fila. Inténtalo de nuevo.' },
      ]);
      const stored = await clientsByPhone();
      expect(stored.get('34644000001')?.segments.map((s) => s.id)).toEqual([seg.id]);
      expect(stored.get('34644000003')?.segments.map((s) => s.id)).toEqual([seg.id]);
      // The row's client was written before its link failed: the transaction took it back.
      expect(stored.has(refused)).toBe(false);
    } finally {
      await sql`drop trigger refuse_link${sql.raw(ctx.engine === 'postgres' ? ' on client_segments' : '')}`.execute(
        db,
      );
    }
  });

  it('10,000 rows with object and array cells among them: every row ends up in error or success', async () => {
    await createSegment(ctx, companyId, { name: 'Diez mil' });
    const rows: Record<string, unknown>[] = Array.from({ length: 10_000 }, (_, i) => ({
      nombre: `Masivo ${i}`,
      apellidos: 'Prueba',
      celular: `5255${String(20_000_000 + i)}`,
      correo: `masivo${i}@example.test`,
      segmentos: 'diez mil',
    }));
    const broken = new Map<number, string>();
    for (let i = 7; i < rows.length; i += 97) {
      // Objects and arrays where text belongs, even in every cell of the row or in an unknown column.
      const kind = ((i / 97) % 4) | 0;
      if (kind === 0) rows[i] = { ...rows[i], nombre: { first: 'x' } };
      if (kind === 1) rows[i] = { ...rows[i], celular: ['34600000000'] };
      if (kind === 2) rows[i] = { nombre: {}, apellidos: [], celular: {}, correo: [] };
      if (kind === 3) rows[i] = { ...rows[i], notas: { long: true } };
      broken.set(
        i + 1,
        Object.keys(rows[i])
          .filter((k) => typeof rows[i][k] === 'object')
          .join(', '),
      );
    }
    // Invalid text too: a control character, and a name of nothing but a zero-width space.
    rows[1] = { ...rows[1], nombre: 'Bad\u0007name' };
    rows[2] = { ...rows[2], apellidos: '\u200B' };
    const res = await post(rows);
    expect(res.statusCode).toBe(200);
    const { error, success } = res.json().data as {
      error: { row: number; name: string; message: string }[];
      success: { row: number }[];
    };
    expect(error.length + success.length).toBe(10_000);
    expect(new Set([...error, ...success].map((r) => r.row)).size).toBe(10_000);
    expect(error.map((e) => e.row)).toEqual([2, 3, ...broken.keys()]);
    for (const e of error.slice(2)) {
      const headers = broken
        .get(e.row)!
        .split(', ')
        .map((h) => `«${h}»`)
        .join(', ');
      expect(e.message).toContain(`Estas columnas no contienen texto: ${headers}.`);
    }
    expect(error[0].message).toBe(
      'El campo nombre contiene caracteres no permitidos (de control o de dirección del texto).',
    );
    expect(error[1].message).toBe('El campo apellidos es obligatorio.');
    expect(res.json().message).toBe(
      `Importación completada: ${success.length} creados, 0 actualizados, ${error.length} con errores.`,
    );
    const stored = await clientsByPhone();
    for (const row of broken.keys()) expect(stored.has(`5255${20_000_000 + row - 1}`)).toBe(false);
  });

  it("one import per company at a time: a second one meanwhile answers 429 in the caller's language", async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      nombre: `Concurrente ${i}`,
      apellidos: 'X',
      celular: `5256${String(30_000_000 + i)}`,
      correo: `c${i}@example.test`,
    }));
    const other = await createUser(ctx, { role: 'admin' });
    for (const lang of ['es', 'en']) {
      const [a, b] = await Promise.all([post(rows, lang), post(rows, lang)]);
      const statuses = [a.statusCode, b.statusCode].sort();
      expect(statuses, lang).toEqual([200, 429]);
      const refused = a.statusCode === 429 ? a : b;
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.json()).toEqual({
        message:
          lang === 'es'
            ? 'Ya hay una importación de clientes en curso para esta compañía. Espera a que termine e inténtalo de nuevo.'
            : 'A client import is already running for this company. Wait for it to finish and try again.',
      });
    }
    // Another company's import is not held up, and once done the company may import again.
    const [mine, theirs] = await Promise.all([
      post(rows.slice(0, 3_000)),
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/import/clients',
        headers: other.headers,
        payload: { clients: rows.slice(0, 3_000) },
      }),
    ]);
    expect([mine.statusCode, theirs.statusCode]).toEqual([200, 200]);
  });

  it('gives other requests turns while it works: /health answers during a 10,000-row import', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      nombre: `Turnos ${i}`,
      apellidos: 'X',
      celular: `5257${String(40_000_000 + i)}`,
      correo: `t${i}@example.test`,
    }));
    let done = false;
    let answeredMeanwhile = 0;
    const importing = post(rows).finally(() => {
      done = true;
    });
    // One health check after another for as long as the import runs, each in a turn of its own (no
    // clock involved): an import that never let the event loop turn would finish before the first.
    while (!done) {
      await new Promise((resolve) => setImmediate(resolve));
      const health = await ctx.app.inject({ method: 'GET', url: '/api/v1/health' });
      expect(health.statusCode).toBe(200);
      if (!done) answeredMeanwhile++;
    }
    expect((await importing).statusCode).toBe(200);
    // Checking and writing 10,000 rows takes 20 + 20 turns of the event loop at least.
    expect(answeredMeanwhile).toBeGreaterThanOrEqual(20);
  });
});
