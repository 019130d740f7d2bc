import { describe, expect, it } from 'vitest';
import { INSTRUCTIONS_HEADING, type PromptInstruction, buildBotPrompt, matchingInstructions } from './prompt';

const instructions: PromptInstruction[] = [
  { id: 7, ask: 'Horario', reply: 'Abrimos de 9 a 18 h.', segments: [1, 2] },
  { id: 3, ask: 'Precios VIP', reply: 'Ofrece un 10 % de descuento.', segments: [2] },
  { id: 5, ask: 'Mayoristas', reply: 'Pide el CIF antes de cotizar.', segments: [3] },
  { id: 9, ask: 'Sin segmentos', reply: 'Nunca debería aparecer.', segments: [] },
];

describe('matchingInstructions', () => {
  it('keeps the instructions sharing at least one segment with the customer, in id order', () => {
    expect(matchingInstructions(instructions, [2]).map((i) => i.id)).toEqual([3, 7]);
    expect(matchingInstructions(instructions, [1]).map((i) => i.id)).toEqual([7]);
    expect(matchingInstructions(instructions, [1, 3]).map((i) => i.id)).toEqual([5, 7]);
  });

  it('a customer without segments, or in no instruction’s segment, gets none; an instruction without segments matches nobody', () => {
    expect(matchingInstructions(instructions, [])).toEqual([]);
    expect(matchingInstructions(instructions, [42])).toEqual([]);
    expect(matchingInstructions(instructions, [1, 2, 3]).map((i) => i.id)).not.toContain(9);
  });

  it('does not reorder the caller’s array', () => {
    const copy = [...instructions];
    matchingInstructions(copy, [1, 2, 3]);
    expect(copy).toEqual(instructions);
  });
});

describe('buildBotPrompt', () => {
  it('personality, then the matching instructions under a heading, then the message as the user turn', () => {
    const prompt = buildBotPrompt({
      personality: '  Eres Sofía, la asistente de Muebles Roble.\n',
      instructions,
      segments: [2],
      message: '¿Tienen descuentos?',
    });
    expect(prompt.instructionIds).toEqual([3, 7]);
    expect(prompt.messages).toEqual([
      {
        role: 'system',
        content: [
          'Eres Sofía, la asistente de Muebles Roble.',
          '',
          INSTRUCTIONS_HEADING,
          '',
          '## Precios VIP',
          'Ofrece un 10 % de descuento.',
          '',
          '## Horario',
          'Abrimos de 9 a 18 h.',
        ].join('\n'),
      },
      { role: 'user', content: '¿Tienen descuentos?' },
    ]);
  });

  it('without a matching instruction the system prompt is the personality alone', () => {
    const prompt = buildBotPrompt({
      personality: 'Eres un bot.',
      instructions,
      segments: [99],
      message: 'Hola',
    });
    expect(prompt.instructionIds).toEqual([]);
    expect(prompt.messages[0]).toEqual({ role: 'system', content: 'Eres un bot.' });
    expect(prompt.messages[0].content).not.toContain(INSTRUCTIONS_HEADING);
  });

  it('places the history between the system prompt and the new message', () => {
    const prompt = buildBotPrompt({
      personality: 'Eres un bot.',
      instructions: [],
      segments: [],
      message: '¿Y mañana?',
      history: [
        { role: 'user', content: '¿Abren hoy?' },
        { role: 'assistant', content: 'Sí, hasta las 18 h.' },
      ],
    });
    expect(prompt.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(prompt.messages.at(-1)).toEqual({ role: 'user', content: '¿Y mañana?' });
  });

  it('keeps media addresses and line breaks of the texts as they are, and the message untouched', () => {
    const prompt = buildBotPrompt({
      personality: 'Catálogo: https://example.test/storage/catalogo.pdf',
      instructions: [
        {
          id: 1,
          ask: 'Enviar foto',
          reply: 'Envía esta imagen:\nhttps://example.test/storage/a1b2/sofa.jpg',
          segments: [4],
        },
      ],
      segments: [4],
      message: '  ¿me mandas la foto?  ',
    });
    expect(prompt.messages[0].content).toContain('https://example.test/storage/catalogo.pdf');
    expect(prompt.messages[0].content).toContain(
      '## Enviar foto\nEnvía esta imagen:\nhttps://example.test/storage/a1b2/sofa.jpg',
    );
    expect(prompt.messages[1].content).toBe('  ¿me mandas la foto?  ');
  });

  it('is pure: the same input gives the same prompt', () => {
    const input = { personality: 'P', instructions, segments: [1, 2, 3], message: 'm' };
    expect(buildBotPrompt(input)).toEqual(buildBotPrompt(input));
  });
});
