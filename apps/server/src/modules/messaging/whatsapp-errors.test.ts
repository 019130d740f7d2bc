import { beforeAll, describe, expect, it } from 'vitest';
import { registerServerTexts } from '../../i18n';
import { WHATSAPP_ERRORS, explainError, isResendable, localizeErrors } from './whatsapp-errors';
import { whatsappErrorsTexts } from './whatsapp-errors.i18n';

/** The codes the catalogue must word, each in Spanish and English. */
const REQUIRED = [
  100, 190, 368, 130429, 131000, 131026, 131031, 131042, 131045, 131047, 131049, 131050, 131051, 131052,
  131053, 131056, 132000, 132001, 132005, 132007, 132012, 132015, 132016, 133010,
];

/** Codes where sending the same message again cannot help: the chat hides its resend button. */
const NOT_RESENDABLE = [100, 131026, 131047, 131050, 131051, 132000, 132001, 132015, 132016];

beforeAll(() => registerServerTexts());

describe('the catalogue of WhatsApp errors', () => {
  it.each(REQUIRED)('words %i in es and en, each its own, with Meta’s title', (code) => {
    const es = explainError('es', code, 'raw text');
    const en = explainError('en', code, 'raw text');
    expect(WHATSAPP_ERRORS[code]).toBeDefined();
    expect(es.code).toBe(code);
    expect(es.title).toBe(WHATSAPP_ERRORS[code]!.title);
    expect(es.explanation).toBe(
      whatsappErrorsTexts.es[`wa_error.${code}` as keyof typeof whatsappErrorsTexts.es],
    );
    expect(en.explanation).toBe(
      whatsappErrorsTexts.en[`wa_error.${code}` as keyof typeof whatsappErrorsTexts.en],
    );
    expect(es.explanation.length).toBeGreaterThan(40);
    expect(en.explanation.length).toBeGreaterThan(40);
    expect(es.explanation).not.toBe(en.explanation);
    expect(es.explanation).not.toBe(explainError('es', 999_999, null).explanation);
    expect(es.resendable).toBe(en.resendable);
  });

  it('has the same keys in both languages and no text without a code in the catalogue', () => {
    const es = Object.keys(whatsappErrorsTexts.es).sort();
    expect(Object.keys(whatsappErrorsTexts.en).sort()).toEqual(es);
    const coded = es.map((k) => k.slice('wa_error.'.length)).filter((k) => /^\d+$/.test(k));
    expect(coded.map(Number).sort()).toEqual(Object.keys(WHATSAPP_ERRORS).map(Number).sort());
  });

  it('says where resending cannot help (a missing template, a number not on WhatsApp …)', () => {
    for (const code of NOT_RESENDABLE) expect(isResendable(code), String(code)).toBe(false);
    for (const code of [190, 130429, 131000, 131049, 131056])
      expect(isResendable(code), String(code)).toBe(true);
    expect(explainError('es', 132001, null).resendable).toBe(false);
    expect(explainError('es', 131026, null).resendable).toBe(false);
  });

  it('gives an unknown code a generic explanation with WhatsApp’s own text as the title, resendable', () => {
    expect(explainError('es', 131999, '(#131999) Something new')).toEqual({
      code: 131999,
      title: '(#131999) Something new',
      explanation: whatsappErrorsTexts.es['wa_error.unknown'],
      resendable: true,
    });
    expect(explainError('en', null, 'WhatsApp is not configured: the access token is missing')).toMatchObject(
      {
        code: null,
        explanation: whatsappErrorsTexts.en['wa_error.not_configured'],
      },
    );
    expect(explainError('en', null, null).explanation).toBe(whatsappErrorsTexts.en['wa_error.no_code']);
  });

  it('puts the explanations of an answer in the reader’s language, leaving the rest as it is', () => {
    const answer = {
      messages: [
        { id: 1, error: explainError('es', 131047, null), error_message: 'Re-engagement message' },
        { id: 2, error: null },
      ],
      event: { data: { error_detail: explainError('es', 131999, 'x'), error: 'x' } },
    };
    localizeErrors(answer, 'en');
    expect(answer.messages[0]!.error).toEqual(explainError('en', 131047, null));
    expect(answer.messages[0]!.error_message).toBe('Re-engagement message');
    expect(answer.messages[1]!.error).toBeNull();
    expect(answer.event.data.error_detail).toEqual(explainError('en', 131999, 'x'));
    expect(answer.event.data.error).toBe('x');
  });
});
