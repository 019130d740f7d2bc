import type { LoginRequest } from '@hablabot/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { afterSignIn, type LoginState } from '../../app/guards';
import { prefetchLanding } from '../../app/prefetch';
import { FormField } from '../../components/Form/FormField';
import { useZodForm } from '../../components/Form/useZodForm';
import { AlertIcon, CheckIcon, EyeIcon, EyeOffIcon } from '../../components/lib/public-icons';
import { isApiError } from '../../lib/api-client';
import { setSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/use-document-title';
import { fetchCsrfCookie, login } from './api';
import { authIssueText } from './auth-issues';
import '../../styles/auth.css';

/** The session is stored and the user moves on 1 second after the server's message. */
export const LOGIN_REDIRECT_MS = 1000;

type Banner = { type: 'success' | 'error'; text: string };

// The contract's schema is fetched on the first check, so zod stays out of the sign-in screen's first
// JavaScript (the /login budget is 150 KB gzip).
const loginSchema = () => import('@hablabot/contract').then((contract) => contract.ZLoginRequest);

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const state = location.state as LoginState | null;
  const notice = state?.notice ?? null;
  const from = state?.from;
  const [banner, setBanner] = useState<Banner | null>(notice ? { type: 'success', text: notice } : null);
  const [redirecting, setRedirecting] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const {
    register,
    handleSubmit,
    fieldError,
    formState: { isSubmitting },
  } = useZodForm<LoginRequest>({
    schema: loginSchema,
    fieldLabels: 'auth.fields',
    messages: authIssueText,
    // Checked on submit, then again as the user corrects a field.
    mode: 'onSubmit',
    defaultValues: { email: '', password: '' },
  });
  useDocumentTitle(t('auth.login.title'));

  useEffect(() => () => clearTimeout(timer.current), []);

  const onSubmit = handleSubmit(async (values) => {
    if (redirecting) return;
    setBanner(null);
    try {
      await fetchCsrfCookie();
      const result = await login(values);
      if (!result?.success || !result.token) {
        setBanner({ type: 'error', text: result?.message || t('auth.errors.unknown') });
        return;
      }
      const rol = result.user?.roles?.[0]?.name ?? null;
      setBanner({ type: 'success', text: result.message || t('common.success') });
      setRedirecting(true);
      prefetchLanding(rol);
      timer.current = setTimeout(() => {
        setSession({ token: result.token, user: result.user ?? null, rol });
        navigate(afterSignIn(rol, from), { replace: true });
      }, LOGIN_REDIRECT_MS);
    } catch (error) {
      if (!isApiError(error)) {
        setBanner({ type: 'error', text: t('auth.errors.unknown') });
      } else if (error.status === 0) {
        setBanner({ type: 'error', text: t('auth.errors.connection') });
      } else if (error.status === 401) {
        setBanner({ type: 'error', text: error.serverMessage || t('auth.errors.invalidCredentials') });
      } else {
        setBanner({ type: 'error', text: error.serverMessage || t('auth.errors.server') });
      }
    }
  });

  const busy = isSubmitting || redirecting;
  const emailError = fieldError('email');
  const passwordError = fieldError('password');

  return (
    <section className="auth-card" aria-labelledby="login-title">
      <header className="auth-card__header">
        <h2 id="login-title" className="auth-card__title">
          {t('auth.login.title')}
        </h2>
        <p className="auth-card__subtitle">{t('auth.login.subtitle')}</p>
      </header>

      <div className="auth-card__banner" aria-live="polite">
        {banner && (
          <div
            className={`banner banner--${banner.type}`}
            role={banner.type === 'error' ? 'alert' : 'status'}
            data-testid="login-message"
          >
            {banner.type === 'error' ? <AlertIcon size={18} /> : <CheckIcon size={18} />}
            <span>{banner.text}</span>
          </div>
        )}
      </div>

      <form className="auth-form" onSubmit={onSubmit} noValidate>
        <FormField id="login-email" label={t('auth.login.email')} error={emailError}>
          {(control) => (
            <input
              {...control}
              className="hb-input"
              type="email"
              autoComplete="email"
              inputMode="email"
              placeholder={t('auth.login.emailPlaceholder')}
              required
              {...register('email')}
            />
          )}
        </FormField>
        <FormField
          id="login-password"
          label={t('auth.login.password')}
          error={passwordError}
          trailing={
            <button
              type="button"
              className="field__reveal"
              aria-label={showPassword ? t('auth.login.hidePassword') : t('auth.login.showPassword')}
              aria-pressed={showPassword}
              onClick={() => setShowPassword((value) => !value)}
            >
              {showPassword ? <EyeOffIcon size={18} /> : <EyeIcon size={18} />}
            </button>
          }
        >
          {(control) => (
            <input
              {...control}
              className="hb-input"
              type={showPassword ? 'text' : 'password'}
              autoComplete="current-password"
              placeholder={t('auth.login.passwordPlaceholder')}
              required
              {...register('password')}
            />
          )}
        </FormField>
        <div className="auth-form__row">
          <Link to="/" className="link">
            {t('auth.login.forgot')}
          </Link>
        </div>
        <button
          type="submit"
          className="button button--primary button--block"
          disabled={busy}
          aria-busy={busy}
        >
          {busy && <span className="spinner" aria-hidden="true" />}
          {isSubmitting ? t('auth.login.submitting') : t('auth.login.submit')}
        </button>
      </form>

      <p className="auth-card__footer">
        {t('auth.login.noAccount')}{' '}
        <Link to="/register" className="link link--strong">
          {t('auth.login.register')}
        </Link>
      </p>
    </section>
  );
}
