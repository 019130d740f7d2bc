import { consentWord } from '../clients/consent';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Lists of phrases seen (a company's, as last read) and their one pattern; a few companies' worth. */
const patterns = new Map<string, RegExp | null>();
const KEPT_PATTERNS = 256;

/** One pattern for all the phrases, built once per list (every customer message is matched). */
function patternOf(phrases: readonly string[]): RegExp | null {
  const key = phrases.join('\u0000');
  let pattern = patterns.get(key);
  if (pattern === undefined) {
    const alternatives = phrases.flatMap((phrase) => {
      const words = consentWord(phrase);
      return words ? [words.split(' ').map(escapeRegExp).join('\\s+')] : [];
    });
    pattern = alternatives.length
      ? new RegExp(`(?:^|[^\\p{L}\\p{N}])(?:${alternatives.join('|')})(?:$|[^\\p{L}\\p{N}])`, 'u')
      : null;
    if (patterns.size >= KEPT_PATTERNS) patterns.clear();
    patterns.set(key, pattern);
  }
  return pattern;
}

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
