import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { registerServerTexts, SERVER_TEXTS } from '../src/i18n';
import { tooManyRequests } from '../src/platform/errors';
import { translate } from '../src/platform/locale';

const here = import.meta.dirname;
const src = path.join(here, '..', 'src');

/** Every file a module loads at run time, following relative imports (`import type` is erased). */
function runtimeImports(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'(\.[^']+)'/gm)) {
      const target = path.resolve(path.dirname(file), m[1]);
      visit(fs.existsSync(`${target}.ts`) ? `${target}.ts` : path.join(target, 'index.ts'));
    }
  };
  visit(entry);
  return seen;
}

describe('server texts', () => {
  it('every catalogue has the same keys in es and en, namespaced, and no key is in two catalogues', () => {
    const owner = new Map<string, number>();
    for (const [i, catalogue] of SERVER_TEXTS.entries()) {
      expect(Object.keys(catalogue.en).sort()).toEqual(Object.keys(catalogue.es).sort());
      for (const key of Object.keys(catalogue.es)) {
        expect(key).toMatch(/^[a-z_]+(\.[A-Za-z_0-9]+)+$/);
        expect(owner.get(key), `${key} is in catalogues ${owner.get(key)} and ${i}`).toBeUndefined();
        owner.set(key, i);
      }
    }
    // Every catalogue file of the server is registered.
    const files = fs
      .readdirSync(src, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.i18n.ts'));
    expect(files.length).toBe(SERVER_TEXTS.length);
  });

  it('a process built without routes (a worker) answers the texts of every module in es and en', async () => {
    const asked = [
      ['es', 'clients.phone_taken', {}],
      ['en', 'clients.phone_taken', {}],
      ['es', 'segments.not_found', {}],
      ['en', 'auth.invalid_credentials', {}],
      ['es', 'users.not_found', {}],
      ['en', 'errors.internal', {}],
      ['es', 'validation.required', { field: 'nombre' }],
      ['en', 'clients.import_done', { created: 1, updated: 2, failed: 3 }],
    ];
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', path.join(here, 'fixtures', 'worker.ts'), JSON.stringify(asked)],
      { cwd: path.join(here, '..') },
    );
    expect(JSON.parse(stdout)).toEqual([
      'Ya existe un cliente con este número de WhatsApp.',
      'A client with this WhatsApp number already exists.',
      'El segmento no existe.',
      'Invalid credentials',
      'El usuario no existe.',
      'An internal error occurred',
      'El campo nombre es obligatorio.',
      'Import finished: 1 created, 2 updated, 3 with errors.',
    ]);
    // …and it really loaded no HTTP app: neither app.ts, nor a routes file, nor the error handler.
    const loaded = [...runtimeImports(path.join(here, 'fixtures', 'worker.ts'))].map((f) =>
      path.relative(src, f),
    );
    expect(loaded).toContain('container.ts');
    expect(loaded.filter((f) => /(^app\.ts|\.routes\.ts|error-handler\.ts)$/.test(f))).toEqual([]);
  });

  it('a number beside a noun agrees with it: a count of one reads the singular form', () => {
    registerServerTexts();
    const wait = (lang: 'es' | 'en', seconds: number) => {
      const error = tooManyRequests('auth.too_many_attempts', seconds);
      return translate(lang, error.key, error.params);
    };
    expect(wait('es', 1)).toBe('Demasiados intentos de inicio de sesión. Inténtalo de nuevo en 1 segundo.');
    expect(wait('es', 2)).toBe('Demasiados intentos de inicio de sesión. Inténtalo de nuevo en 2 segundos.');
    expect(wait('en', 1)).toBe('Too many sign-in attempts. Try again in 1 second.');
    expect(wait('en', 0)).toBe('Too many sign-in attempts. Try again in 0 seconds.');
    expect(translate('es', 'mass.requeued', { count: 1 })).toBe('1 destinatario en cola de nuevo.');
    expect(translate('en', 'mass.requeued', { count: 3 })).toBe('3 recipients queued again.');
    // A singular form always sits beside the plural it belongs to.
    for (const catalogue of SERVER_TEXTS)
      for (const key of Object.keys(catalogue.es).filter((k) => k.endsWith('_one')))
        expect(catalogue.es, key).toHaveProperty([key.slice(0, -'_one'.length)]);
  });

  it('the import service phrases validation without the HTTP error handler', () => {
    const loaded = [...runtimeImports(path.join(src, 'modules/clients/clients-import.service.ts'))].map((f) =>
      path.relative(src, f),
    );
    expect(loaded).toContain(path.join('platform', 'validation-text.ts'));
    expect(loaded).not.toContain(path.join('platform', 'error-handler.ts'));
  });
});
