import {
  type CreateTeamMemberRequest,
  TEAM_ROLES,
  type TeamMember,
  type TeamRole,
  type UpdateTeamMemberRequest,
  ZCreateTeamMemberRequest,
  ZUpdateTeamMemberRequest,
} from '@hablabot/contract';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  FormField,
  FormModal,
  MessageBox,
  useMessageBox,
  useZodForm,
  ValidationErrorList,
} from '../../components';
import { useSaveMember } from './api';
import { failureText } from './failure';

export interface MemberFormValues {
  name: string;
  email: string;
  /** Editing: empty keeps the current password. */
  password: string;
  role: TeamRole;
}

/** Fields in screen order: the first one with a server error takes the focus. */
const FIELDS: readonly (keyof MemberFormValues)[] = ['name', 'email', 'role', 'password'];

/** What the form sends: on edit, the password only when one is typed (empty keeps the current one). */
function formSchema(editing: boolean) {
  if (!editing) return ZCreateTeamMemberRequest;
  return z.preprocess((raw) => {
    const { password, ...rest } = raw as MemberFormValues;
    return password ? { ...rest, password } : rest;
  }, ZUpdateTeamMemberRequest);
}

export interface MemberFormProps {
  /** The member being edited; null adds one. */
  member: TeamMember | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}

/** 'Nuevo miembro' / 'Editar miembro': name, email, role (Administrador or Agente) and password. */
export function MemberForm({ member, onClose, onSaved }: MemberFormProps) {
  const { t } = useTranslation();
  const formId = useId();
  const ids = (field: string) => `${formId}-${field}`;
  const save = useSaveMember();
  const banner = useMessageBox();
  const editing = member !== null;
  const schema = useMemo(() => formSchema(editing), [editing]);
  const {
    register,
    handleSubmit,
    fieldError,
    serverErrors,
    applyServerErrors,
    clearServerErrors,
    formState: { isSubmitting },
  } = useZodForm<MemberFormValues, CreateTeamMemberRequest | UpdateTeamMemberRequest>({
    schema,
    fieldLabels: 'team.members.fields',
    defaultValues: {
      name: member?.name ?? '',
      email: member?.email ?? '',
      password: '',
      role: member?.role ?? 'agent',
    },
  });

  const onSubmit = handleSubmit(async (body) => {
    banner.clear();
    clearServerErrors();
    try {
      const response = await save.mutateAsync({ id: member?.id, body });
      onSaved(response.message || t('team.members.feedback.saved'));
    } catch (error) {
      // A taken email answers 409: its message goes on the email field.
      if (applyServerErrors(error, { fields: FIELDS, conflictField: 'email' })) return;
      console.error('Saving the team member failed', error);
      banner.error(failureText(error, t));
    }
  });

  const busy = isSubmitting || save.isPending;
  return (
    <FormModal
      formId={formId}
      title={editing ? t('team.members.form.editTitle') : t('team.members.form.createTitle')}
      size="md"
      busy={busy}
      cancelLabel={t('team.members.form.cancel')}
      submitLabel={editing ? t('team.members.form.save') : t('team.members.form.create')}
      onClose={onClose}
      onSubmit={onSubmit}
    >
      <MessageBox {...banner.props} />
      <ValidationErrorList errors={serverErrors} />
      <FormField id={ids('name')} label={t('team.members.form.name')} required error={fieldError('name')}>
        {(field) => <input {...field} className="hb-input" autoComplete="off" {...register('name')} />}
      </FormField>
      <FormField id={ids('email')} label={t('team.members.form.email')} required error={fieldError('email')}>
        {(field) => (
          <input {...field} className="hb-input" type="email" autoComplete="off" {...register('email')} />
        )}
      </FormField>
      <FormField id={ids('role')} label={t('team.members.form.role')} required error={fieldError('role')}>
        {(field) => (
          <select {...field} className="hb-input" {...register('role')}>
            {TEAM_ROLES.map((role) => (
              <option key={role} value={role}>
                {t(`team.roles.${role}`)}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField
        id={ids('password')}
        label={t('team.members.form.password')}
        required={!editing}
        optional={editing}
        hint={editing ? t('team.members.form.passwordKeep') : undefined}
        error={fieldError('password')}
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
    </FormModal>
  );
}
