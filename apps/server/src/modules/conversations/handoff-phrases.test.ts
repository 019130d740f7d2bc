// The hand-off phrases alone: a whole word or phrase of the message, any case, accents or not.
import { DEFAULT_HANDOFF_PHRASES } from '@hablabot/contract';
import { describe, expect, it } from 'vitest';
import { matchesHandoffPhrase } from './handoff-phrases';

describe('hand-off phrases', () => {
  const phrases = DEFAULT_HANDOFF_PHRASES;
  it.each([
    'agente',
    'Quiero hablar con un AGENTE, por favor',
    '¿Puedo hablar con un ágente?',
    'Necesito un asesor.',
    'HUMANO!!',
    'quiero hablar  con   alguien ya',
    'I want a human',
  ])('asks for a person: %s', (message) => {
    expect(matchesHandoffPhrase(message, phrases)).toBe(true);
  });

  it.each(['agentes de viaje', 'reagente', 'personalizado', 'hablar con algo', '', 'humanos'])(
    'does not: %s',
    (message) => {
      expect(matchesHandoffPhrase(message, phrases)).toBe(false);
    },
  );

  it("the company's own phrases, with accents on either side", () => {
    expect(matchesHandoffPhrase('pásame con atención al cliente', ['atencion al cliente'])).toBe(true);
    expect(matchesHandoffPhrase('atencion al cliente', ['Atención al Cliente'])).toBe(true);
    expect(matchesHandoffPhrase('atención', ['atencion al cliente'])).toBe(false);
  });
});
