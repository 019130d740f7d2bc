import { describe, expect, it } from 'vitest';
import { conversationForPrompt } from './bot-reply';

const turn = (id: number, sender: 'client' | 'admin' | 'bot', content: string) => ({ id, sender, content });

describe('conversationForPrompt', () => {
  it('answers the customer messages since the last answer, with the turns before as history', () => {
    const result = conversationForPrompt([
      turn(1, 'client', 'Hola'),
      turn(2, 'bot', '¡Hola! ¿En qué te ayudo?'),
      turn(3, 'admin', 'Soy Ana, de la tienda'),
      turn(4, 'client', 'Quería saber'),
      turn(5, 'client', 'el precio'),
    ]);
    expect(result).toEqual({
      message: 'Quería saber\nel precio',
      history: [
        { role: 'user', content: 'Hola' },
        { role: 'assistant', content: '¡Hola! ¿En qué te ayudo?' },
        { role: 'assistant', content: 'Soy Ana, de la tienda' },
      ],
      lastCustomerMessageId: 5,
      waiting: ['Quería saber', 'el precio'],
    });
  });

  it('gives nothing when the conversation ends with an answer', () => {
    expect(conversationForPrompt([turn(1, 'client', 'Hola'), turn(2, 'admin', 'Hola')])).toBeNull();
    expect(conversationForPrompt([])).toBeNull();
  });

  it('keeps the newest history within the character budget', () => {
    const result = conversationForPrompt(
      [turn(1, 'client', 'a'.repeat(50)), turn(2, 'bot', 'b'.repeat(30)), turn(3, 'client', 'c'.repeat(10))],
      45,
    );
    expect(result?.message).toBe('c'.repeat(10));
    expect(result?.history).toEqual([{ role: 'assistant', content: 'b'.repeat(30) }]);
  });
});
