import { describe, expect, it } from 'vitest';
import { type CreateTemplateRequest, ZCreateTemplateRequest } from './template-create.schema';

const valid: CreateTemplateRequest = {
  name: 'pedido_listo',
  language: 'es',
  category: 'UTILITY',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Pedido {{1}}', example: { header_text: ['1234'] } },
    {
      type: 'BODY',
      text: 'Hola {{1}}, tu pedido {{2}} está listo. {{1}}, pasa cuando quieras.',
      example: { body_text: [['Ana', '1234']] },
    },
    { type: 'FOOTER', text: 'Tienda Sol' },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'QUICK_REPLY', text: 'Gracias' },
        { type: 'URL', text: 'Ver pedido', url: 'https://tienda.example/p/{{1}}', example: ['1234'] },
        { type: 'PHONE_NUMBER', text: 'Llamar', phone_number: '+34600112233' },
      ],
    },
  ],
};

type Components = CreateTemplateRequest['components'];
const withComponents = (components: Components) => ({ ...valid, components });
/** The messages of a request's issues, with their paths joined. */
function issues(request: unknown): Record<string, string> {
  const r = ZCreateTemplateRequest.safeParse(request);
  if (r.success) return {};
  return Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
}
const body = (text: string, example?: string[]) => ({
  type: 'BODY' as const,
  text,
  ...(example ? { example: { body_text: [example] } } : {}),
});

describe('template creation request (Meta rules)', () => {
  it('takes a template in Meta shape with every kind of component', () => {
    expect(issues(valid)).toEqual({});
    const media = withComponents([
      { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['https://x.example/a.png'] } },
      body('Sin variables.'),
    ]);
    expect(issues(media)).toEqual({});
  });

  it('checks the name, language and category', () => {
    expect(issues({ ...valid, name: 'Pedido Listo' })).toEqual({ name: 'templates.name_format' });
    expect(issues({ ...valid, name: '' })).toMatchObject({ name: 'templates.name_required' });
    expect(issues({ ...valid, name: 'a'.repeat(513) })).toMatchObject({ name: 'templates.name_too_long' });
    expect(issues({ ...valid, language: 'espanol' })).toEqual({ language: 'templates.language_format' });
    expect(issues({ ...valid, category: 'OTHER' })).toEqual({ category: 'templates.category' });
  });

  it('wants placeholders numbered from 1 without gaps, each with an example', () => {
    expect(issues(withComponents([body('Hola {{2}}', ['x'])]))).toEqual({
      'components.0.text': 'templates.placeholders_order',
    });
    expect(issues(withComponents([body('Hola {{1}} y {{3}}', ['a', 'b'])]))).toEqual({
      'components.0.text': 'templates.placeholders_order',
    });
    expect(issues(withComponents([body('Hola {{1}} y {{2}}', ['Ana'])]))).toEqual({
      'components.0.example.body_text.0.1': 'templates.example_required',
    });
    expect(issues(withComponents([body('Hola {{1}}')]))).toEqual({
      'components.0.example.body_text.0.0': 'templates.example_required',
    });
    expect(issues(withComponents([body('Hola {{1}}', ['  '])]))).toEqual({
      'components.0.example.body_text.0.0': 'templates.example_required',
    });
  });

  it("keeps Meta's lengths: header 60, body 1024, footer 60, button text 25", () => {
    expect(
      issues(withComponents([{ type: 'HEADER', format: 'TEXT', text: 'h'.repeat(61) }, body('b')])),
    ).toEqual({ 'components.0.text': 'templates.header_too_long' });
    expect(
      issues(withComponents([{ type: 'HEADER', format: 'TEXT', text: 'h'.repeat(60) }, body('b')])),
    ).toEqual({});
    expect(issues(withComponents([body('b'.repeat(1025))]))).toEqual({
      'components.0.text': 'templates.body_too_long',
    });
    expect(issues(withComponents([body('b'.repeat(1024))]))).toEqual({});
    expect(issues(withComponents([body('b'), { type: 'FOOTER', text: 'f'.repeat(61) }]))).toEqual({
      'components.1.text': 'templates.footer_too_long',
    });
    expect(
      issues(
        withComponents([
          body('b'),
          { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 't'.repeat(26) }] },
        ]),
      ),
    ).toEqual({ 'components.1.buttons.0.text': 'templates.button_text_too_long' });
  });

  it('counts buttons: two URL buttons and one phone button at most', () => {
    const url = (n: number) => ({ type: 'URL' as const, text: `Web ${n}`, url: `https://x.example/${n}` });
    expect(
      issues(withComponents([body('b'), { type: 'BUTTONS', buttons: [url(1), url(2), url(3)] }])),
    ).toEqual({
      'components.1.buttons': 'templates.url_buttons_too_many',
    });
    const phone = { type: 'PHONE_NUMBER' as const, text: 'Llamar', phone_number: '+34600112233' };
    expect(issues(withComponents([body('b'), { type: 'BUTTONS', buttons: [phone, phone] }]))).toEqual({
      'components.1.buttons': 'templates.phone_buttons_too_many',
    });
    expect(
      issues(withComponents([body('b'), { type: 'BUTTONS', buttons: [{ ...phone, phone_number: '600' }] }])),
    ).toEqual({ 'components.1.buttons.0.phone_number': 'templates.button_phone' });
  });

  it('wants one body, a sample for a media header, and no repeated part', () => {
    expect(issues(withComponents([{ type: 'FOOTER', text: 'f' }]))).toEqual({
      components: 'templates.body_required',
    });
    expect(issues(withComponents([{ type: 'HEADER', format: 'VIDEO' }, body('b')]))).toEqual({
      'components.0.example.header_handle': 'templates.header_sample_required',
    });
    expect(issues(withComponents([body('a'), body('b')]))).toEqual({
      'components.1': 'templates.component_repeated',
    });
  });
});
