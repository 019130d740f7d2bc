import { describe, expect, it } from 'vitest';
import { ZSendTemplateMessageRequest } from './templates.schema';

const base = { client_id: 1, phone: '+34 600 11 22 33', templateName: 'pedido_listo' };
const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? [] : r.error!.issues.map((i) => i.message);

describe('template send request', () => {
  it('normalises the phone, defaults the parameters and accepts WhatsApp language codes', () => {
    const r = ZSendTemplateMessageRequest.safeParse({ ...base, language: 'en_US' });
    expect(r.success).toBe(true);
    expect(r.data).toMatchObject({ phone: '34600112233', bodyParameters: {}, language: 'en_US' });
    for (const language of ['es', 'pt_BR', 'zh_CN', 'fil']) {
      expect(ZSendTemplateMessageRequest.safeParse({ ...base, language }).success).toBe(true);
    }
  });

  it('refuses parameters not keyed by number, bad languages and hostile text', () => {
    expect(
      messages(ZSendTemplateMessageRequest.safeParse({ ...base, bodyParameters: { nombre: 'Ana' } })),
    ).toContain('templates.parameter_key');
    expect(
      messages(ZSendTemplateMessageRequest.safeParse({ ...base, bodyParameters: { '0': 'Ana' } })),
    ).toContain('templates.parameter_key');
    expect(messages(ZSendTemplateMessageRequest.safeParse({ ...base, language: 'es; drop' }))).toContain(
      'templates.language_format',
    );
    expect(
      messages(ZSendTemplateMessageRequest.safeParse({ ...base, bodyParameters: { '1': 'gnp\u202Eexe' } })),
    ).toContain('validation.text_characters');
    expect(ZSendTemplateMessageRequest.safeParse({ ...base, bodyParameters: { '1': 1 } }).success).toBe(
      false,
    );
  });
});
