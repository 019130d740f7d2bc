const formatters = new Map<string, Intl.NumberFormat>();

/**
 * Groups thousands the way the rest of the product does (es-MX / en-US: 10,000), so counts in tables
 * match the dashboards' figures.
 */
export function formatNumber(value: number, language: string | undefined): string {
  const locale = language?.startsWith('en') ? 'en-US' : 'es-MX';
  let formatter = formatters.get(locale);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale);
    formatters.set(locale, formatter);
  }
  return formatter.format(value);
}
