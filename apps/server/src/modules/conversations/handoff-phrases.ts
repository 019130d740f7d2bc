import { memoByList } from '../../platform/list-memo';
import { consentWord } from '../clients/consent';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One pattern for all the phrases, built once per list (every customer message is matched). */
const patternOf = memoByList((phrases): RegExp | null => {
  const alternatives = phrases.flatMap((phrase) => {
    const words = consentWord(phrase);
    return words ? [words.split(' ').map(escapeRegExp).join('\\s+')] : [];
  });
  return alternatives.length
    ? new RegExp(`(?:^|[^\\p{L}\\p{N}])(?:${alternatives.join('|')})(?:$|[^\\p{L}\\p{N}])`, 'u')
    : null;
});

/**
 * Whether the customer's message holds one of the hand-off phrases as a whole word or phrase, in any
 * case and with or without accents ('Quiero hablar con un AGENTE' holds 'agente'; 'agentes' and
 * 'reagente' do not). Spaces inside a phrase match any run of spaces.
 */
export function matchesHandoffPhrase(message: string, phrases: readonly string[]): boolean {
  const text = consentWord(message);
  if (!text) return false;
  return patternOf(phrases)?.test(text) ?? false;
}
