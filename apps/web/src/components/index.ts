// The shared widgets: presentational building blocks, no data fetching.
export { Avatar, type AvatarProps } from './Avatar/Avatar';
export { AVATAR_COLORS, avatarColor, getInitials } from './Avatar/avatar';
export { Button, type ButtonProps, type ButtonVariant } from './Button/Button';
export { Chip, type ChipProps, chipColor } from './Chip/Chip';
export { ChipBar, type ChipBarProps } from './ChipBar/ChipBar';
export {
  ColorPicker,
  type ColorPickerProps,
  DEFAULT_COLOR_PRESETS,
  DEFAULT_SEGMENT_COLOR,
  sanitizeHexInput,
} from './ColorPicker/ColorPicker';
export {
  ConfirmDialog,
  type ConfirmDialogProps,
  type ConfirmOptions,
  type ConfirmTone,
} from './ConfirmDialog/ConfirmDialog';
export { type ConfirmFn, ConfirmProvider, useConfirm, useConfirmDialog } from './ConfirmDialog/useConfirm';
export {
  DataTable,
  type DataTableColumn,
  type DataTableMode,
  type DataTableProps,
  DEFAULT_FILTER_DEBOUNCE_MS,
  DEFAULT_PAGE_SIZE,
  PAGE_SIZES,
  type PaginationState,
  type SelectionHelpers,
  type SortingState,
} from './DataTable/DataTable';
export { CHIP_FALLBACK_COLOR, isHexColor, PICKER_FALLBACK_COLOR, readableTextColor } from './lib/color';
export { formatNumber } from './lib/format';
export { foldText } from './lib/text';
export { LoadingOverlay, type LoadingOverlayProps } from './LoadingOverlay/LoadingOverlay';
export {
  MessageBox,
  type MessageBoxProps,
  type MessageState,
  type MessageType,
  useMessageBox,
} from './MessageBox/MessageBox';
export { AudioFileIcon, DocumentFileIcon, ImageFileIcon, VideoFileIcon } from './lib/icons';
export { formatBytes, MediaKindIcon, mediaSrc } from './MediaPicker/media';
export { MediaPicker, type MediaPickerProps } from './MediaPicker/MediaPicker';
export { Modal, type ModalProps, type ModalSize } from './Modal/Modal';
export {
  MultiSelect,
  type MultiSelectOption,
  type MultiSelectProps,
  type MultiSelectValue,
} from './MultiSelect/MultiSelect';
export { clampText, Textarea, type TextareaProps } from './Textarea/Textarea';
export {
  errorLines,
  ValidationErrorList,
  type ValidationErrorListProps,
} from './ValidationErrorList/ValidationErrorList';
export {
  describedBy,
  type FieldControlProps,
  FormField,
  type FormFieldProps,
  type FormIssue,
  FormModal,
  type FormModalProps,
  fieldControlProps,
  genericIssueText,
  issueText,
  type ServerErrorOptions,
  useZodForm,
  type ZodFormOptions,
} from './Form';
