import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en.json';
import es from '../locales/es.json';

export type TestLanguage = 'es' | 'en';

/**
 * Initialises a fresh i18next instance with the real es/en catalogues and registers it with
 * react-i18next, so components under test render the product's own texts. Synchronous: resources
 * are inline, so `t` works on the first render.
 */
export function initTestI18n(language: TestLanguage = 'es'): I18n {
  const instance = i18next.createInstance();
  instance.use(initReactI18next).init({
    lng: language,
    fallbackLng: 'es',
    supportedLngs: ['es', 'en'],
    resources: { es: { translation: es }, en: { translation: en } },
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
    showSupportNotice: false,
  });
  return instance;
}
