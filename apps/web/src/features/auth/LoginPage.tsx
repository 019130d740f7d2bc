import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { prefetchLanding } from '../../app/prefetch';
import { AlertIcon, CheckIcon, EyeIcon, EyeOffIcon } from '../../layouts/icons';
import { isApiError } from '../../lib/api-client';
import { roleLanding, setSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/use-document-title';
import { fetchCsrfCookie, type LoginRequest, login } from './api';
import { AuthField } from './AuthField';
import '../../styles/auth.css';

/** SPEC.md section 4: the session is stored and the user moves on 1 second after the server's message. */
export const LOGIN_REDIRECT_MS = 1000;

type Banner = { type: 'success' | 'error'; text: string };

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const notice = (location.state as { notice?: string } | null)?.notice ?? null;
  const [banner, setBanner] = useState<Banner | null>(notice ? { type: 'success', text: notice } : null);
  const [redirecting, setRedirecting] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Two fields: plain state keeps react-hook-form out of the sign-in bundle (SPEC budget: 150 KB).
  const [values, setValues] = useState<LoginRequest>({ email: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof LoginRequest, string>>>({});
  const [isSubmitting, setSubmitting] = useState(false);
  useDocumentTitle(t('auth.login.title'));

  useEffect(() => () => clearTimeout(timer.current), []);

  const validate = (next: LoginRequest) => {
    const found: Partial<Record<keyof LoginRequest, string>> = {};
    if (next.email.trim() === '') found.email = t('auth.errors.emailRequired');
    else if (!EMAIL_PATTERN.test(next.email.trim())) found.email = t('auth.errors.emailInvalid');
    if (next.password === '') found.password = t('auth.errors.passwordRequired');
    return found;
  };

  const update = (field: keyof LoginRequest, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    // Once a field showed an error, re-check it as the user types.
    if (errors[field]) setErrors((current) => ({ ...current, [field]: validate(next)[field] }));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isSubmitting || redirecting) return;
    const found = validate(values);
    setErrors(found);
    if (found.email || found.password) {
      const firstInvalid = found.email ? 'login-email' : 'login-password';
      document.getElementById(firstInvalid)?.focus();
      return;
    }
    setBanner(null);
    setSubmitting(true);
    try {
      await fetchCsrfCookie();
      const result = await login({ email: values.email.trim(), password: values.password });
      if (!result?.success || !result.token) {
        setBanner({ type: 'error', text: result?.message || t('auth.errors.unknown') });
        return;
      }
      const rol = result.user?.roles?.[0]?.name ?? null;
      setBanner({ type: 'success', text: result.message || t('common.success') });
      setRedirecting(true);
      prefetchLanding(rol);
      timer.current = setTimeout(() => {
        setSession({ token: result.token as string, user: result.user ?? null, rol });
        navigate(roleLanding(rol) ?? '/', { replace: true });
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
    } finally {
      setSubmitting(false);
    }
  };

  const busy = isSubmitting || redirecting;

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
        <AuthField
          id="login-email"
          name="email"
          value={values.email}
          onChange={(event) => update('email', event.target.value)}
          label={t('auth.login.email')}
          type="email"
          autoComplete="email"
          inputMode="email"
          placeholder={t('auth.login.emailPlaceholder')}
          required
          error={errors.email}
        />
        <AuthField
          id="login-password"
          name="password"
          value={values.password}
          onChange={(event) => update('password', event.target.value)}
          label={t('auth.login.password')}
          type={showPassword ? 'text' : 'password'}
          autoComplete="current-password"
          placeholder={t('auth.login.passwordPlaceholder')}
          required
          error={errors.password}
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
        />
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
