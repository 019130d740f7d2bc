import { type Role, type RoleRequest, ZRoleRequest } from '@hablabot/contract';
import { useId } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  ColorPicker,
  DEFAULT_SEGMENT_COLOR,
  MessageBox,
  Textarea,
  useMessageBox,
  ValidationErrorList,
  FormModal,
} from '../../components';
import { FormField } from '../../components/Form/FormField';
import { useZodForm } from '../../components/Form/useZodForm';
import { useSaveRole } from './api';
import { descriptionToSave, roleDescription } from './builtin-roles';
import { failureText } from './failure';

interface RoleFormValues {
  name: string;
  description: string;
  color: string;
}

const FIELDS: readonly (keyof RoleFormValues)[] = ['name', 'color', 'description'];
/** The longest description a role keeps. */
const DESCRIPTION_MAX = 255;

export interface RoleFormProps {
  /** The role being edited; null creates one. */
  role: Role | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}

/** Create/edit role modal: name and colour required, description optional; a built-in role keeps its name. */
export function RoleForm({ role, onClose, onSaved }: RoleFormProps) {
  const { t } = useTranslation();
  const formId = useId();
  const ids = (field: string) => `${formId}-${field}`;
  const save = useSaveRole();
  const banner = useMessageBox();
  const editing = role !== null;
  const builtin = role?.builtin ?? false;
  const {
    register,
    control,
    handleSubmit,
    fieldError,
    serverErrors,
    applyServerErrors,
    clearServerErrors,
    formState: { isSubmitting },
  } = useZodForm<RoleFormValues, RoleRequest>({
    schema: ZRoleRequest,
    fieldLabels: 'superAdmin.roles.fields',
    defaultValues: {
      name: role?.name ?? '',
      description: (role && roleDescription(role, t)) ?? '',
      color: role?.color ?? DEFAULT_SEGMENT_COLOR,
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    banner.clear();
    clearServerErrors();
    try {
      const response = await save.mutateAsync({
        id: role?.id,
        body: { ...values, description: descriptionToSave(role, values.description ?? '', t) },
      });
      onSaved(response.message || t('superAdmin.roles.feedback.saved'));
    } catch (error) {
      if (applyServerErrors(error, { fields: FIELDS, conflictField: 'name' })) return;
      console.error('Saving the role failed', error);
      banner.error(failureText(error, t));
    }
  });

  const busy = isSubmitting || save.isPending;
  const colorError = fieldError('color');
  const descriptionError = fieldError('description');
  return (
    <FormModal
      formId={formId}
      title={editing ? t('superAdmin.roles.form.editTitle') : t('superAdmin.roles.form.createTitle')}
      size="md"
      busy={busy}
      cancelLabel={t('superAdmin.roles.form.cancel')}
      submitLabel={editing ? t('superAdmin.roles.form.save') : t('superAdmin.roles.form.create')}
      onClose={onClose}
      onSubmit={onSubmit}
    >
      <MessageBox {...banner.props} />
      <ValidationErrorList errors={serverErrors} />
      <FormField
        id={ids('name')}
        label={t('superAdmin.roles.form.name')}
        required
        hint={builtin ? t('superAdmin.roles.builtinName') : undefined}
        error={fieldError('name')}
      >
        {(field) => (
          <input {...field} className="hb-input" readOnly={builtin} maxLength={50} {...register('name')} />
        )}
      </FormField>
      <FormField
        id={ids('description')}
        label={t('superAdmin.roles.form.description')}
        optional
        error={descriptionError}
      >
        {(field) => (
          <Textarea
            id={field.id}
            rows={3}
            maxLength={DESCRIPTION_MAX}
            invalid={Boolean(descriptionError)}
            aria-describedby={field['aria-describedby']}
            {...register('description')}
          />
        )}
      </FormField>
      <FormField id={ids('color')} label={t('superAdmin.roles.form.color')} required error={colorError}>
        {(field) => (
          <Controller
            control={control}
            name="color"
            render={({ field: colorField }) => (
              <ColorPicker
                id={field.id}
                ref={colorField.ref}
                name={colorField.name}
                value={colorField.value}
                onChange={colorField.onChange}
                onBlur={colorField.onBlur}
                required
                invalid={Boolean(colorError)}
                aria-describedby={field['aria-describedby']}
              />
            )}
          />
        )}
      </FormField>
    </FormModal>
  );
}
