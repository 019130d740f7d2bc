import { consentWord } from '../clients/consent';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether the customer's message holds one of the hand-off phrases as a whole word or phrase, in any
 * case and with or without accents ('Quiero hablar con un AGENTE' holds 'agente'; 'agentes' and
 * 'reagente' do not). Spaces inside a phrase match any run of spaces.
 */
export function matchesHandoffPhrase(message: string, phrases: readonly string[]): boolean {
  const text = consentWord(message);
  if (!text) return false;
  return phrases.some((phrase) => {
    const words = consentWord(phrase);
    if (!words) return false;
    const pattern = words.split(' ').map(escapeRegExp).join('\\s+');
    return new RegExp(`(?:^|[^\\p{L}\\p{N}])${pattern}(?:$|[^\\p{L}\\p{N}])`, 'u').test(text);
  });
}
