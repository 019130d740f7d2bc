import readXlsxFile from 'read-excel-file/node';
import writeXlsxFile from 'write-excel-file/node';
import { describe, expect, it } from 'vitest';
import es from './locales/es.json';
import {
  buildExportRows,
  columnWidths,
  EXPORT_COLUMNS,
  EXPORT_FILE_NAME,
  EXPORT_SHEET_NAME,
  neutraliseFormula,
} from './export';
import { makeClient } from '../../test';

const headers = es.clients.export.headers;

const clients = [
  makeClient({
    id: 3,
    name: 'Ana',
    last_names: 'García López',
    whatsapp_cellphone: '5215512345678',
    email: 'ana@example.com',
    projects: 'Web corporativa',
    segments: [
      { id: 1, name: 'VIP', color: '#1a73e8' },
      { id: 2, name: 'Nuevos', color: '#7300ff' },
    ],
  }),
  makeClient({
    id: 4,
    name: 'Luis',
    last_names: 'Pérez',
    whatsapp_cellphone: '34600111222',
    email: null,
    segments: [],
  }),
];

describe('client export', () => {
  it('names the file clients.xlsx and the sheet Clients Data', () => {
    expect(EXPORT_FILE_NAME).toBe('clients.xlsx');
    expect(EXPORT_SHEET_NAME).toBe('Clients Data');
  });

  it('builds a header row and one row per client: id, name, last names, phone, email, segment names, projects', () => {
    const rows = buildExportRows(clients, headers);
    expect(EXPORT_COLUMNS).toEqual(['id', 'name', 'last_names', 'phone', 'email', 'segments', 'projects']);
    expect(rows).toEqual([
      ['id', 'nombre', 'apellidos', 'celular', 'correo', 'segmentos', 'proyectos'],
      [3, 'Ana', 'García López', '5215512345678', 'ana@example.com', 'VIP, Nuevos', 'Web corporativa'],
      [4, 'Luis', 'Pérez', '34600111222', null, null, null],
    ]);
    expect(columnWidths(rows).map((c) => c.width)).toEqual([6, 8, 14, 15, 17, 13, 17]);
  });

  it('writes an xlsx that reads back with the sheet name and the same rows', async () => {
    const rows = buildExportRows(clients, headers);
    const buffer = await writeXlsxFile(
      rows.map((row) => row.map((value) => (value === null ? null : { value }))),
      { sheet: EXPORT_SHEET_NAME },
    ).toBuffer();
    const sheets = await readXlsxFile(buffer);
    expect(sheets.map((s) => s.sheet)).toEqual(['Clients Data']);
    expect(sheets[0].data[0]).toEqual([
      'id',
      'nombre',
      'apellidos',
      'celular',
      'correo',
      'segmentos',
      'proyectos',
    ]);
    expect(sheets[0].data[1]).toEqual([
      3,
      'Ana',
      'García López',
      '5215512345678',
      'ana@example.com',
      'VIP, Nuevos',
      'Web corporativa',
    ]);
    expect(sheets[0].data[2]).toEqual([4, 'Luis', 'Pérez', '34600111222', null, null, null]);
  });

  it('keeps text that a spreadsheet would run as a formula as text, and leaves other text alone', () => {
    for (const risky of ['=1+1', '+34 600', '-2', '@SUM(A1)', '\tx', '\rx']) {
      expect(neutraliseFormula(risky)).toBe(`'${risky}`);
    }
    for (const plain of ['Ana', 'a=b', 'García-López', ' =1', '']) {
      expect(neutraliseFormula(plain)).toBe(plain);
    }
    const [, row] = buildExportRows(
      [makeClient({ id: 9, name: '=HYPERLINK("http://x","y")', last_names: '-Pérez', projects: '@cmd' })],
      headers,
    );
    expect(row).toEqual([9, `'=HYPERLINK("http://x","y")`, "'-Pérez", row[3], row[4], 'VIP', "'@cmd"]);
  });
});
