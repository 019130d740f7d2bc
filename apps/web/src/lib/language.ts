import type { Answer, LanguageSetRequest } from '@hablabot/contract';
import type { authApi } from '@hablabot/contract/api';
import { setLanguage } from '../features/auth/api';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from './api-client';
import {
  currentLanguage,
  DEFAULT_LANGUAGE,
  getStoredLanguage,
  i18next,
  type Language,
  storeLanguage,
} from './i18n';
import { getToken } from './session';

/** The language feedback disappears after 5 seconds. */
export const LANGUAGE_FEEDBACK_MS = 5000;

export interface LanguageFeedback {
  type: 'success' | 'error';
  text: string;
}

/** The server's answer, read leniently: a missing message falls back to ours. */
type LanguageSetResponse = Partial<Answer<typeof authApi.setLanguage>>;

/**
 * The language switcher's rules: one change at a time; the UI switches at once,
 * the server is told (it remembers the choice for a signed-in user); on success the choice is stored,
 * on failure the stored language comes back. Either way a message shows for 5 seconds.
 */
export function useLanguageSwitch() {
  const { t, i18n } = useTranslation();
  const [pending, setPending] = useState(false);
  const [feedback, setFeedback] = useState<LanguageFeedback | null>(null);
  const busy = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      clearTimeout(timer.current);
    };
  }, []);

  const show = useCallback((next: LanguageFeedback) => {
    if (!mounted.current) return;
    clearTimeout(timer.current);
    setFeedback(next);
    timer.current = setTimeout(() => {
      if (mounted.current) setFeedback(null);
    }, LANGUAGE_FEEDBACK_MS);
  }, []);

  const change = useCallback(
    async (language: Language) => {
      if (busy.current || language === currentLanguage()) return;
      busy.current = true;
      setPending(true);
      const signedIn = getToken() !== null;
      try {
        await i18next.changeLanguage(language);
        const body: LanguageSetRequest = { language };
        const result: LanguageSetResponse | null = await setLanguage(body, language);
        if (result && result.success === false) throw new Error('language/set refused');
        storeLanguage(language);
        const fallback = signedIn ? 'language.updated' : 'language.temporary';
        show({ type: 'success', text: result?.message || i18next.t(fallback) });
      } catch (error) {
        await i18next.changeLanguage(getStoredLanguage() ?? DEFAULT_LANGUAGE);
        const serverMessage = isApiError(error) ? error.serverMessage : null;
        show({ type: 'error', text: serverMessage || i18next.t('language.error') });
      } finally {
        busy.current = false;
        if (mounted.current) setPending(false);
      }
    },
    [show],
  );

  return { language: (i18n.resolvedLanguage ?? i18n.language) as string, change, pending, feedback, t };
}
