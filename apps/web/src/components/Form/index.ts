export {
  describedBy,
  type FieldControlProps,
  FormField,
  type FormFieldProps,
  fieldControlProps,
} from './FormField';
export {
  type FormIssue,
  genericIssueText,
  issueText,
  type ServerErrorOptions,
  useZodForm,
  type ZodFormOptions,
} from './useZodForm';
export { FormModal, type FormModalProps } from './FormModal';
