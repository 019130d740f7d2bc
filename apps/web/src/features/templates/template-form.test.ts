import { describe, expect, it } from 'vitest';
import {
  EMPTY_TEMPLATE,
  fillExamples,
  serverIssuesByField,
  type TemplateFormValues,
  templateFormIssues,
  toCreateRequest,
} from './template-form';

const values = (patch: Partial<TemplateFormValues>): TemplateFormValues => ({
  ...EMPTY_TEMPLATE,
  name: 'pedido_listo',
  body: 'Hola {{1}}, tu pedido {{2}} está listo.',
  bodyExamples: ['Ana', '1234'],
  ...patch,
});
const keys = (v: TemplateFormValues) =>
  Object.fromEntries(Object.entries(templateFormIssues(v)).map(([field, issue]) => [field, issue.key]));

describe('template form rules (the contract schema, on the form fields)', () => {
  it('builds Meta shape: header, body with its examples, footer, buttons', () => {
    const request = toCreateRequest(
      values({
        header: 'TEXT',
        headerText: 'Pedido {{1}}',
        headerExample: '1234',
        footer: 'Tienda Sol',
        buttons: [
          { type: 'QUICK_REPLY', text: 'Gracias', url: 'x', phone_number: 'x' },
          { type: 'URL', text: 'Ver', url: 'https://x.example', phone_number: '' },
        ],
      }),
    );
    expect(request.components).toEqual([
      { type: 'HEADER', format: 'TEXT', text: 'Pedido {{1}}', example: { header_text: ['1234'] } },
      {
        type: 'BODY',
        text: 'Hola {{1}}, tu pedido {{2}} está listo.',
        example: { body_text: [['Ana', '1234']] },
      },
      { type: 'FOOTER', text: 'Tienda Sol' },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'QUICK_REPLY', text: 'Gracias' },
          { type: 'URL', text: 'Ver', url: 'https://x.example' },
        ],
      },
    ]);
    expect(keys(values({}))).toEqual({});
  });

  it('puts each broken rule on its field', () => {
    expect(keys(values({ name: 'Pedido' }))).toEqual({ name: 'templates.name_format' });
    expect(keys(values({ body: 'Hola {{1}} {{3}}' }))).toEqual({ body: 'templates.placeholders_order' });
    expect(keys(values({ bodyExamples: ['Ana'] }))).toEqual({
      'bodyExamples.1': 'templates.example_required',
    });
    expect(keys(values({ header: 'TEXT', headerText: 'h'.repeat(61) }))).toEqual({
      headerText: 'templates.header_too_long',
    });
    expect(keys(values({ header: 'IMAGE' }))).toEqual({ headerMedia: 'templates.header_sample_required' });
    expect(keys(values({ body: 'b'.repeat(1025), bodyExamples: [] }))).toEqual({
      body: 'templates.body_too_long',
    });
    expect(keys(values({ footer: 'f'.repeat(61) }))).toEqual({ footer: 'templates.footer_too_long' });
    const url = { type: 'URL' as const, text: 'Web', url: 'https://x.example', phone_number: '' };
    expect(keys(values({ buttons: [url, url, url] }))).toEqual({ buttons: 'templates.url_buttons_too_many' });
    expect(keys(values({ buttons: [{ ...url, text: 'x'.repeat(26) }] }))).toEqual({
      'buttons.0.text': 'templates.button_text_too_long',
    });
    expect(keys(values({ buttons: [{ ...url, url: 'notaurl' }] }))).toEqual({
      'buttons.0.url': 'templates.button_url',
    });
    expect(templateFormIssues(values({ footer: 'f'.repeat(61) })).footer?.params).toEqual({ max: 60 });
  });

  it("puts the server's 422 keys (request paths) on the same fields", () => {
    expect(
      serverIssuesByField(
        { name: ['Ya existe'], 'components.0.example.body_text.0.1': ['Falta el ejemplo'] },
        values({}),
      ),
    ).toEqual({ name: 'Ya existe', 'bodyExamples.1': 'Falta el ejemplo' });
  });

  it("names a media header's sample by its library file, which the server uploads to Meta", () => {
    const media = { id: 42, url: 'https://app.example/storage/media/ab/x.png', name: 'precios.png' };
    const request = toCreateRequest(values({ header: 'IMAGE', headerMedia: media }));
    expect(request.header_media_id).toBe(42);
    expect(request.components[0]).toEqual({ type: 'HEADER', format: 'IMAGE' });
    expect(keys(values({ header: 'IMAGE', headerMedia: media }))).toEqual({});
    // A text header never carries the library file.
    expect(
      toCreateRequest(values({ header: 'TEXT', headerText: 'Hola', headerMedia: media })),
    ).not.toHaveProperty('header_media_id');
    expect(
      serverIssuesByField(
        { header_media_id: ['El archivo de muestra no es del tipo que pide el encabezado.'] },
        values({ header: 'IMAGE', headerMedia: media }),
      ),
    ).toEqual({ headerMedia: 'El archivo de muestra no es del tipo que pide el encabezado.' });
  });

  it('fills the preview with the examples, leaving {{n}} without one', () => {
    expect(fillExamples('Hola {{1}}, pedido {{2}}', ['Ana'])).toBe('Hola Ana, pedido {{2}}');
  });
});
