import {
  type Company,
  type CreateUserRequest,
  type UpdateUserRequest,
  type Role,
  type User,
  ZCreateUserRequest,
  ZUpdateUserRequest,
} from '@hablabot/contract';
import { useId, useMemo } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  MessageBox,
  MultiSelect,
  type MultiSelectOption,
  useMessageBox,
  ValidationErrorList,
  FormModal,
} from '../../components';
import { FormField } from '../../components/Form/FormField';
import { useZodForm } from '../../components/Form/useZodForm';
import { useSaveUser } from './api';
import { failureText } from './failure';
import { roleDescription, roleTitle } from './builtin-roles';

export interface UserFormValues {
  name: string;
  email: string;
  roles: number[];
  password: string;
  /** Editing only: whether the password is replaced ('¿Desea actualizar la contraseña?'). */
  change_password: boolean;
  /** An existing company's id as text; '' creates a new company. */
  company_id: string;
  company_name: string;
}

const FIELDS: readonly (keyof UserFormValues)[] = [
  'name',
  'email',
  'roles',
  'password',
  'company_id',
  'company_name',
];

/**
 * What the form sends: the password only when it is asked for, and a company only for an admin (an
 * existing one by id, or a new one by name — the server names it after the user when the name is empty).
 */
function toRequest(values: UserFormValues, editing: boolean, adminRoleId: number | undefined) {
  const isAdmin = adminRoleId !== undefined && values.roles.includes(adminRoleId);
  const companyId = values.company_id ? Number(values.company_id) : null;
  const companyName = values.company_name.trim();
  return {
    name: values.name,
    email: values.email,
    roles: values.roles,
    ...(editing
      ? values.change_password
        ? { password: values.password }
        : {}
      : { password: values.password }),
    ...(isAdmin
      ? companyId !== null
        ? { company_id: companyId }
        : companyName
          ? { company_name: companyName }
          : {}
      : {}),
  };
}

function formSchema(editing: boolean, adminRoleId: number | undefined) {
  const request = editing ? ZUpdateUserRequest : ZCreateUserRequest;
  // The password checkbox decides on edit: checked, an empty password is an error like on creation.
  const refined = editing
    ? z.preprocess(
        (values) => toRequest(values as UserFormValues, true, adminRoleId),
        request.superRefine((value, ctx) => {
          if ('password' in value && (value.password === '' || value.password == null))
            ctx.addIssue({ code: 'custom', path: ['password'], message: 'validation.required' });
        }),
      )
    : z.preprocess((values) => toRequest(values as UserFormValues, false, adminRoleId), request);
  return refined;
}

export interface UserFormProps {
  /** The user being edited; null creates one. */
  user: User | null;
  roles: readonly Role[];
  companies: readonly Company[];
  onClose: () => void;
  onSaved: (message: string) => void;
}

/** Create/edit user modal: name, email, roles, password, and the company of an admin. */
export function UserForm({ user, roles, companies, onClose, onSaved }: UserFormProps) {
  const { t } = useTranslation();
  const formId = useId();
  const ids = (field: string) => `${formId}-${field}`;
  const save = useSaveUser();
  const banner = useMessageBox();
  const editing = user !== null;
  const adminRoleId = roles.find((role) => role.name === 'admin')?.id;
  const schema = useMemo(() => formSchema(editing, adminRoleId), [editing, adminRoleId]);

  const {
    register,
    control,
    handleSubmit,
    fieldError,
    serverErrors,
    applyServerErrors,
    clearServerErrors,
    formState: { isSubmitting },
  } = useZodForm<UserFormValues, CreateUserRequest | UpdateUserRequest>({
    schema,
    fieldLabels: 'superAdmin.users.fields',
    defaultValues: {
      name: user?.name ?? '',
      email: user?.email ?? '',
      roles: user?.roles.map((role) => role.id) ?? [],
      password: '',
      change_password: false,
      company_id: user?.company_id ? String(user.company_id) : '',
      company_name: '',
    },
  });

  const chosenRoles = useWatch({ control, name: 'roles' });
  const changePassword = useWatch({ control, name: 'change_password' });
  const companyId = useWatch({ control, name: 'company_id' });
  const isAdmin = adminRoleId !== undefined && chosenRoles.includes(adminRoleId);
  const showPassword = !editing || changePassword;

  const options = useMemo<MultiSelectOption<number>[]>(
    () =>
      roles.map((role) => ({
        value: role.id,
        label: roleTitle(role, t),
        color: role.color,
        description: roleDescription(role, t) ?? undefined,
      })),
    [roles, t],
  );

  // The schema turns the form's values into the request, so what it checked is what is sent.
  const onSubmit = handleSubmit(async (body) => {
    banner.clear();
    clearServerErrors();
    try {
      const response = await save.mutateAsync({ id: user?.id, body });
      onSaved(response.message || t('superAdmin.users.feedback.saved'));
    } catch (error) {
      if (applyServerErrors(error, { fields: FIELDS, conflictField: 'email' })) return;
      console.error('Saving the user failed', error);
      banner.error(failureText(error, t));
    }
  });

  const busy = isSubmitting || save.isPending;
  const rolesError = fieldError('roles');
  const passwordError = fieldError('password');

  return (
    <FormModal
      formId={formId}
      title={editing ? t('superAdmin.users.form.editTitle') : t('superAdmin.users.form.createTitle')}
      size="md"
      busy={busy}
      cancelLabel={t('superAdmin.users.form.cancel')}
      submitLabel={editing ? t('superAdmin.users.form.save') : t('superAdmin.users.form.create')}
      onClose={onClose}
      onSubmit={onSubmit}
    >
      <MessageBox {...banner.props} />
      <ValidationErrorList errors={serverErrors} />
      <FormField id={ids('name')} label={t('superAdmin.users.form.name')} required error={fieldError('name')}>
        {(field) => <input {...field} className="hb-input" autoComplete="name" {...register('name')} />}
      </FormField>
      <FormField
        id={ids('email')}
        label={t('superAdmin.users.form.email')}
        required
        error={fieldError('email')}
      >
        {(field) => (
          <input {...field} className="hb-input" type="email" autoComplete="off" {...register('email')} />
        )}
      </FormField>
      <FormField
        id={ids('roles')}
        labelId={ids('roles-label')}
        label={t('superAdmin.users.form.roles')}
        required
        error={rolesError}
      >
        {(field) => (
          <Controller
            control={control}
            name="roles"
            render={({ field: rolesField }) => (
              <MultiSelect<number>
                id={field.id}
                ref={rolesField.ref}
                options={options}
                value={rolesField.value}
                onChange={rolesField.onChange}
                onBlur={rolesField.onBlur}
                coloredChips
                required
                invalid={Boolean(rolesError)}
                placeholder={t('superAdmin.users.form.rolesPlaceholder')}
                searchPlaceholder={t('superAdmin.users.form.rolesSearch')}
                aria-labelledby={ids('roles-label')}
                aria-describedby={field['aria-describedby']}
              />
            )}
          />
        )}
      </FormField>
      {isAdmin && (
        <fieldset className="sa-fieldset">
          <legend>{t('superAdmin.users.form.company')}</legend>
          <FormField
            id={ids('company_id')}
            label={t('superAdmin.users.form.companyExisting')}
            error={fieldError('company_id')}
          >
            {(field) => (
              <select {...field} className="hb-input" {...register('company_id')}>
                <option value="">{t('superAdmin.users.form.companyNew')}</option>
                {companies.map((company) => (
                  <option key={company.id} value={String(company.id)}>
                    {company.name}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          {companyId === '' && (
            <FormField
              id={ids('company_name')}
              label={t('superAdmin.users.form.companyName')}
              optional
              hint={t('superAdmin.users.form.companyNameHint')}
              error={fieldError('company_name')}
            >
              {(field) => <input {...field} className="hb-input" {...register('company_name')} />}
            </FormField>
          )}
        </fieldset>
      )}
      {editing && (
        <label className="sa-checkbox">
          <input type="checkbox" {...register('change_password')} />
          {t('superAdmin.users.form.changePassword')}
        </label>
      )}
      {showPassword && (
        <FormField
          id={ids('password')}
          label={t('superAdmin.users.form.password')}
          required
          error={passwordError}
        >
          {(field) => (
            <input
              {...field}
              className="hb-input"
              type="password"
              autoComplete="new-password"
              {...register('password')}
            />
          )}
        </FormField>
      )}
    </FormModal>
  );
}
