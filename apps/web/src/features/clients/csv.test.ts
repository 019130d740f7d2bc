import { IMPORT_MAX_ROWS } from '@hablabot/contract';
import { describe, expect, it } from 'vitest';
import { columnOf, failedRowsCsv, parseClientsCsv, readFileText } from './csv';

describe('parseClientsCsv', () => {
  it('reads Spanish headers with commas and keeps the rows keyed by the file headers', () => {
    const parsed = parseClientsCsv(
      'nombre,apellidos,celular,correo,proyectos,segmentos\n' +
        'Ana,García López,5215512345678,ana@example.com,Web,VIP|Nuevos\n',
    );
    expect(parsed.problem).toBeNull();
    expect(parsed.delimiter).toBe(',');
    expect(parsed.rows).toEqual([
      {
        nombre: 'Ana',
        apellidos: 'García López',
        celular: '5215512345678',
        correo: 'ana@example.com',
        proyectos: 'Web',
        segmentos: 'VIP|Nuevos',
      },
    ]);
    expect(parsed.columns).toEqual([
      'name',
      'last_names',
      'whatsapp_cellphone',
      'email',
      'projects',
      'segments',
    ]);
    expect(parsed.missing).toEqual([]);
  });

  it('detects semicolons, strips a BOM and skips empty and blank lines', () => {
    const text =
      '\uFEFFname;last_names;phone;email\r\n' +
      '\r\n' +
      'Luis;Pérez;34600111222;luis@example.com\r\n' +
      ';;;\r\n' +
      '   \r\n' +
      'Marta;Ruiz;34600333444;marta@example.com\r\n';
    const parsed = parseClientsCsv(text);
    expect(parsed.delimiter).toBe(';');
    expect(parsed.headers).toEqual(['name', 'last_names', 'phone', 'email']);
    expect(parsed.rows.map((row) => row.name)).toEqual(['Luis', 'Marta']);
    expect(parsed.rows[0]).toEqual({
      name: 'Luis',
      last_names: 'Pérez',
      phone: '34600111222',
      email: 'luis@example.com',
    });
    expect(parsed.problem).toBeNull();
  });

  it('recognises English and Spanish header variants regardless of case, accents and spacing', () => {
    for (const [header, column] of [
      ['Nombre', 'name'],
      ['NAME', 'name'],
      ['Apellidos', 'last_names'],
      ['Last Names', 'last_names'],
      ['Celular', 'whatsapp_cellphone'],
      ['WhatsApp', 'whatsapp_cellphone'],
      ['Phone', 'whatsapp_cellphone'],
      ['Teléfono', 'whatsapp_cellphone'],
      ['Correo', 'email'],
      ['E-mail', 'email'],
      ['Proyectos', 'projects'],
      ['Segmentos', 'segments'],
      ['segment', 'segments'],
    ] as const) {
      expect(columnOf(header), header).toBe(column);
    }
    expect(columnOf('id')).toBeUndefined();
  });

  it('keeps quoted values that contain the delimiter and trims cells', () => {
    const parsed = parseClientsCsv(
      'nombre,apellidos,whatsapp,correo,segmentos\n  Ana  ,"López, de la Vega",5215512345678,ana@example.com,"VIP, Nuevos"\n',
    );
    expect(parsed.rows[0]).toMatchObject({
      nombre: 'Ana',
      apellidos: 'López, de la Vega',
      segmentos: 'VIP, Nuevos',
    });
  });

  it('reports ignored headers and missing required columns', () => {
    const parsed = parseClientsCsv('id,nombre,celular,notas\n7,Ana,5215512345678,llamar\n');
    expect(parsed.ignored).toEqual(['id', 'notas']);
    expect(parsed.columns).toEqual(['name', 'whatsapp_cellphone']);
    expect(parsed.missing).toEqual(['last_names', 'email']);
    expect(parsed.problem).toBeNull();
  });

  it('flags a file without rows, without known columns, or with too many rows', () => {
    expect(parseClientsCsv('').problem).toEqual({ kind: 'empty' });
    expect(parseClientsCsv('nombre,apellidos\n\n\n').problem).toEqual({ kind: 'empty' });
    expect(parseClientsCsv('foo,bar\n1,2\n').problem).toEqual({ kind: 'noKnownColumns' });
    const big = `nombre\n${'Ana\n'.repeat(IMPORT_MAX_ROWS + 1)}`;
    expect(parseClientsCsv(big).problem).toEqual({ kind: 'tooMany', max: IMPORT_MAX_ROWS });
  });

  it('reads a Windows-1252 file (Excel in Spanish) without garbling the accents', async () => {
    // 'nombre;apellidos\nJosé;Muñoz\n' as Windows-1252: é = 0xE9, ñ = 0xF1.
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('nombre;apellidos\nJos'),
      0xe9,
      0x3b,
      ...new TextEncoder().encode('Mu'),
      0xf1,
      ...new TextEncoder().encode('oz\n'),
    ]);
    const text = await readFileText(new File([bytes], 'excel.csv', { type: 'text/csv' }));
    expect(parseClientsCsv(text).rows).toEqual([{ nombre: 'José', apellidos: 'Muñoz' }]);
  });

  it('reads a chosen file as UTF-8 text, BOM included or not', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('nombre\nJosé\n')]);
    const text = await readFileText(new File([bytes], 'a.csv', { type: 'text/csv' }));
    expect(parseClientsCsv(text).rows).toEqual([{ nombre: 'José' }]);
  });

  it("writes the refused rows back as a CSV with the reason, in the file's own delimiter", () => {
    const parsed = parseClientsCsv(
      'nombre;celular;correo\nAna;5215512345678;ana@example.com\nLuis;123;luis@example\nEva;5215599990000;x\n',
    );
    const csv = failedRowsCsv(
      parsed,
      [
        { row: 2, message: 'El número es corto.' },
        { row: 3, message: 'Correo "inválido"; revisa' },
      ],
      'error',
    );
    expect(csv).toBe(
      '\uFEFFnombre;celular;correo;error\r\nLuis;123;luis@example;El número es corto.\r\nEva;5215599990000;x;"Correo ""inválido""; revisa"',
    );
    const again = parseClientsCsv(csv);
    expect(again.ignored).toEqual(['error']);
    expect(again.rows.map((row) => row.nombre)).toEqual(['Luis', 'Eva']);
  });

  it('guards formula cells in the refused rows, and reads them back as they were when imported again', () => {
    const parsed = parseClientsCsv(
      'nombre,celular,proyectos\n' +
        '"=HYPERLINK(""http://evil"",""x"")",+34 600 000 000,@SUM(1+1)\n' +
        '-Pérez,1,"\tcmd|\' /C calc\'!A0"\n',
    );
    const csv = failedRowsCsv(
      parsed,
      [
        { row: 1, message: '=error' },
        { row: 2, message: 'corto' },
      ],
      'error',
    );
    const lines = csv.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[1]).toBe(`"'=HYPERLINK(""http://evil"",""x"")",'+34 600 000 000,'@SUM(1+1),'=error`);
    expect(lines[2].startsWith("'-Pérez,1,")).toBe(true);
    // No cell of the file starts a formula.
    for (const line of lines) {
      for (const cell of line.split(',')) expect(cell.replace(/^"/, '')).not.toMatch(/^[=+\-@\t\r]/);
    }
    const again = parseClientsCsv(csv);
    expect(again.rows).toEqual([
      { ...parsed.rows[0], error: '=error' },
      { ...parsed.rows[1], error: 'corto' },
    ]);
  });
});
