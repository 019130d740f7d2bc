// The shared input rules, tried with what attackers and careless users send. Every module's schemas are
// built from these helpers, so a new module inherits the cases by using them.
import { describe, expect, it } from 'vitest';
import { ZClientRequest, ZSegmentRequest } from './clients.schema';
import { ZIdParams, ZIdsRequest, cleanText, zHttpUrl, zId, zIdList, zText } from './common.schema';
import { PASSWORD_MIN } from './constants';
import {
  ZCreateUserRequest,
  ZRegisterRequest,
  ZRoleRequest,
  ZUpdateUserRequest,
  passwordProblem,
} from './identity.schema';

const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? [] : r.error!.issues.map((i) => i.message);

describe('ids', () => {
  it.each([1, 42, 2_147_483_647, '1', '42'])('accepts %j', (v) => {
    const r = zId().safeParse(v);
    expect(r.success).toBe(true);
    expect(r.data).toBe(Number(v));
  });

  it.each([
    0,
    -1,
    1.5,
    2_147_483_648,
    Number.NaN,
    '0',
    '-1',
    '1.5',
    '0x1',
    ' 1',
    '%201',
    '1e0',
    '01',
    '1 ',
    '',
    true,
    [1],
    [[1]],
    { id: 1 },
    null,
  ])('refuses %j with the id message', (v) => {
    const r = zId().safeParse(v);
    expect(r.success).toBe(false);
    expect(messages(r)).toEqual(['validation.id']);
  });

  it('a missing id reads as required', () => {
    expect(messages(ZIdParams.safeParse({}))).toEqual(['required']);
  });

  it('id lists refuse nested arrays and booleans, and keep their bounds', () => {
    expect(messages(ZIdsRequest.safeParse({ ids: [[1]] }))).toEqual(['validation.id']);
    expect(messages(ZIdsRequest.safeParse({ ids: [true] }))).toEqual(['validation.id']);
    expect(ZIdsRequest.safeParse({ ids: [] }).success).toBe(false);
    expect(ZIdsRequest.parse({ ids: [3, '4'] })).toEqual({ ids: [3, 4] });
    expect(zIdList({ max: 2 }).safeParse([1, 2, 3]).success).toBe(false);
  });

  it('every id field of every module uses the strict rule', () => {
    const client = {
      name: 'Ana',
      last_names: 'Pérez',
      whatsapp_cellphone: '34600123456',
      email: 'ana@example.test',
    };
    expect(messages(ZClientRequest.safeParse({ ...client, segments: [true] }))).toEqual(['validation.id']);
    expect(messages(ZClientRequest.safeParse({ ...client, segments: [0] }))).toEqual(['validation.id']);
    const user = { name: 'Ana', email: 'ana@example.test', password: 'a-long-unusual-phrase' };
    expect(messages(ZCreateUserRequest.safeParse({ ...user, roles: ['1e0'] }))).toEqual(['validation.id']);
    expect(messages(ZCreateUserRequest.safeParse({ ...user, roles: [1], company_id: 0 }))).toEqual([
      'validation.id',
    ]);
    expect(ZUpdateUserRequest.parse({ ...user, roles: [1], company_id: null }).company_id).toBeNull();
  });
});

describe('text', () => {
  const name = zText({ min: 1, max: 20 });
  const notes = zText({ max: 200, multiline: true });

  it.each([
    ['NUL', 'a\u0000b'],
    ['a bell', 'a\u0007b'],
    ['DEL', 'a\u007Fb'],
    ['a C1 control', 'a\u0085b'],
    ['a right-to-left override', 'gnp\u202Eexe.png'],
    ['a left-to-right embedding', '\u202Aabc'],
    ['a first-strong isolate', 'a\u2068b'],
    ['a pop directional isolate', 'a\u2069b'],
    ['an unpaired high surrogate', 'a\uD800b'],
    ['an unpaired low surrogate', 'a\uDC00b'],
    ['a line break in a one-line field', 'a\nb'],
    ['a tab in a one-line field', 'a\tb'],
    ['a line separator', 'a\u2028b'],
  ])('refuses %s', (_label, value) => {
    const r = name.safeParse(value);
    expect(r.success).toBe(false);
    expect(messages(r)).toEqual(['validation.text_characters']);
  });

  it.each(['\u200B', '\uFEFF', ' \u200B\u200C \u2060', '\u00AD', '\u3164'])(
    'an invisible-only value %j does not pass required',
    (v) => {
      expect(name.safeParse(v).success).toBe(false);
    },
  );

  it('removes zero-width spaces inside and trims invisible marks at the ends', () => {
    expect(name.parse('\u200B An\u200Ba \uFEFF')).toBe('Ana');
    expect(cleanText('\u200Dx\u200D')).toBe('x');
  });

  it('keeps real text: accents, emoji with joiners, right-to-left scripts', () => {
    expect(name.parse('José Ñúñez')).toBe('José Ñúñez');
    expect(name.parse('👩‍💻 Ana')).toBe('👩‍💻 Ana');
    expect(name.parse('مرحبا')).toBe('مرحبا');
    expect(name.parse('😀')).toBe('😀');
  });

  it('multi-line fields keep line breaks and tabs but refuse the rest', () => {
    expect(notes.parse('línea 1\r\nlínea\t2')).toBe('línea 1\r\nlínea\t2');
    expect(notes.safeParse('a\u0000b').success).toBe(false);
    expect(notes.safeParse('a\u202Eb').success).toBe(false);
  });

  it('length is counted after cleaning', () => {
    expect(zText({ max: 3 }).safeParse('abc\u200B\u200B\u200B').success).toBe(true);
    expect(zText({ max: 3 }).safeParse('abcd').success).toBe(false);
  });

  it('every text field of every module uses the rules', () => {
    const client = {
      name: 'Ana',
      last_names: 'Pérez',
      whatsapp_cellphone: '34600123456',
      email: 'ana@example.test',
      segments: [1],
    };
    expect(ZClientRequest.safeParse({ ...client, name: '\u200B' }).success).toBe(false);
    expect(messages(ZClientRequest.safeParse({ ...client, last_names: 'a\u0000' }))).toEqual([
      'validation.text_characters',
    ]);
    expect(messages(ZClientRequest.safeParse({ ...client, projects: 'x\u202Ey' }))).toEqual([
      'validation.text_characters',
    ]);
    expect(ZClientRequest.parse({ ...client, projects: 'a\nb' }).projects).toBe('a\nb');
    expect(ZSegmentRequest.safeParse({ name: 'VIP\u0000', color: '#000000', rules: 'x' }).success).toBe(
      false,
    );
    expect(ZRoleRequest.safeParse({ name: '\u200B', color: '#000000' }).success).toBe(false);
    expect(ZRoleRequest.safeParse({ name: 'ok', color: '#000000', description: '\uD800' }).success).toBe(
      false,
    );
  });
});

describe('urls', () => {
  const url = zHttpUrl();
  it.each(['https://cdn.example.test/a.jpg', 'http://example.test/x?y=1#z'])('accepts %s', (v) => {
    expect(url.parse(v)).toBe(v);
  });

  it.each([
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox',
    'file:///etc/passwd',
    '//evil.test/a.png',
    'not a url',
    'https://user:pass@example.test/',
    'https://exa\u202Emple.test/',
    'https://example.test/a b',
  ])('refuses %j', (v) => {
    expect(messages(url.safeParse(v))).toEqual(['validation.url']);
  });

  it('the client avatar is a web address or nothing', () => {
    const client = {
      name: 'Ana',
      last_names: 'Pérez',
      whatsapp_cellphone: '34600123456',
      email: 'ana@example.test',
      segments: [1],
    };
    expect(messages(ZClientRequest.safeParse({ ...client, avatar: 'javascript:alert(1)' }))).toEqual([
      'validation.url',
    ]);
    expect(ZClientRequest.parse({ ...client, avatar: '' }).avatar).toBeNull();
    expect(ZClientRequest.parse({ ...client, avatar: null }).avatar).toBeNull();
    expect(ZClientRequest.parse(client).avatar).toBeUndefined();
    expect(ZClientRequest.parse({ ...client, avatar: 'https://a.test/x.png' }).avatar).toBe(
      'https://a.test/x.png',
    );
  });
});

describe('passwords', () => {
  it(`needs at least ${PASSWORD_MIN} characters`, () => {
    expect(passwordProblem('Xk9#mQ2!p')).toBe('validation.password_min');
    expect(passwordProblem('Xk9#mQ2!pL')).toBeUndefined();
  });

  it.each(['          ', '\t\t\t\t\t\t\t\t\t\t'])('a blank password %j is refused as missing', (p) => {
    expect(passwordProblem(p)).toBe('validation.required');
  });

  it.each([
    '12345678',
    '1234567890',
    '0987654321',
    'aaaaaaaaaaaa',
    'abababababab',
    '..........!!',
    'qwertyuiop',
    'QWERTYUIOP',
    'password123',
    'Password-123',
    'P@ssw0rd123',
    'iloveyou123',
    'abcdefghijkl',
    'zyxwvutsrqpon',
    '1qaz2wsx3edc',
    'contraseña123',
  ])('a common or predictable password %j is refused', (p) => {
    expect(passwordProblem(p)).toMatch(/^validation\.password_(weak|min)$/);
  });

  it("refuses a password that is little more than the account's email or name", () => {
    expect(passwordProblem('lucia.garcia2', { email: 'lucia.garcia@acme.test' })).toBe(
      'validation.password_personal',
    );
    expect(passwordProblem('Lucía García 1', { name: 'Lucía García' })).toBe('validation.password_personal');
    expect(passwordProblem('lucia-likes-green-tea', { name: 'Lucía' })).toBeUndefined();
  });

  it('accepts ordinary long passphrases', () => {
    for (const p of ['correct horse battery', 'Mi-perro-Toby-2019', 'E2e-Secret-2026!', 'secret-pass-123'])
      expect(passwordProblem(p)).toBeUndefined();
  });

  it('the forms apply the rules, the personal one included', () => {
    const register = { name: 'Carla Ruiz', email: 'carla@example.test' };
    expect(messages(ZRegisterRequest.safeParse({ ...register, password: 'short' }))).toEqual([
      'validation.password_min',
    ]);
    expect(messages(ZRegisterRequest.safeParse({ ...register, password: ' '.repeat(12) }))).toEqual([
      'validation.required',
    ]);
    expect(messages(ZRegisterRequest.safeParse({ ...register, password: 'carlaruiz1' }))).toEqual([
      'validation.password_personal',
    ]);
    const user = { ...register, roles: [1] };
    expect(messages(ZCreateUserRequest.safeParse({ ...user, password: 'password123' }))).toEqual([
      'validation.password_weak',
    ]);
    expect(ZUpdateUserRequest.safeParse({ ...user, password: '' }).success).toBe(true);
    expect(messages(ZUpdateUserRequest.safeParse({ ...user, password: '12345678' }))).toEqual([
      'validation.password_min',
    ]);
  });
});
