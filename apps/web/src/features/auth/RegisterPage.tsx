import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ValidationErrorList } from '../../components/ValidationErrorList/ValidationErrorList';
import { AlertIcon } from '../../layouts/icons';
import { isApiError } from '../../lib/api-client';
import { applyFieldErrors, useApiErrors } from '../../lib/api-errors';
import { useDocumentTitle } from '../../lib/use-document-title';
import { type RegisterRequest, register as registerAccount } from './api';
import { AuthField } from './AuthField';
import '../../styles/auth.css';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** SPEC.md section 2: name, email and password with fixed Spanish labels; success goes to /login. */
export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const apiErrors = useApiErrors();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<RegisterRequest>({ defaultValues: { name: '', email: '', password: '' } });
  useDocumentTitle(t('auth.register.title'));

  const onSubmit = handleSubmit(async (values) => {
    apiErrors.clear();
    setFailure(null);
    try {
      const result = await registerAccount({
        name: values.name.trim(),
        email: values.email.trim(),
        password: values.password,
      });
      navigate('/login', { state: { notice: result?.message || t('auth.register.success') } });
    } catch (error) {
      apiErrors.capture(error);
      if (isApiError(error) && error.status === 422) {
        applyFieldErrors(error, setError);
      } else if (isApiError(error) && error.status === 0) {
        setFailure(t('auth.errors.connection'));
      } else {
        setFailure((isApiError(error) && error.serverMessage) || t('auth.errors.server'));
      }
    }
  });

  return (
    <section className="auth-card" aria-labelledby="register-title">
      <header className="auth-card__header">
        <h2 id="register-title" className="auth-card__title">
          {t('auth.register.title')}
        </h2>
        <p className="auth-card__subtitle">{t('auth.register.subtitle')}</p>
      </header>

      <div className="auth-card__banner" aria-live="polite">
        <ValidationErrorList errors={apiErrors.fieldErrors} />
        {failure && (
          <div className="banner banner--error" role="alert">
            <AlertIcon size={18} />
            <span>{failure}</span>
          </div>
        )}
      </div>

      <form className="auth-form" onSubmit={onSubmit} noValidate>
        <AuthField
          label={t('auth.register.name')}
          autoComplete="name"
          required
          error={errors.name?.message}
          {...register('name', {
            validate: (value) => value.trim() !== '' || t('auth.errors.nameRequired'),
          })}
        />
        <AuthField
          label={t('auth.register.email')}
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          error={errors.email?.message}
          {...register('email', {
            required: t('auth.errors.emailRequired'),
            validate: (value) => EMAIL_PATTERN.test(value.trim()) || t('auth.errors.emailInvalid'),
          })}
        />
        <AuthField
          label={t('auth.register.password')}
          type="password"
          autoComplete="new-password"
          required
          error={errors.password?.message}
          {...register('password', { required: t('auth.errors.passwordRequired') })}
        />
        <button
          type="submit"
          className="button button--primary button--block"
          disabled={isSubmitting}
          aria-busy={isSubmitting}
        >
          {isSubmitting && <span className="spinner" aria-hidden="true" />}
          {isSubmitting ? t('auth.register.submitting') : t('auth.register.submit')}
        </button>
      </form>

      <p className="auth-card__footer">
        {t('auth.register.haveAccount')}{' '}
        <Link to="/login" className="link link--strong">
          {t('auth.register.login')}
        </Link>
      </p>
    </section>
  );
}
