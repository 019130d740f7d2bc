import {
  ArrowRight,
  Building2,
  ChartLine,
  ChevronDown,
  ChevronLeft,
  ChevronRight,
  ChevronUp,
  ChevronsLeft,
  ChevronsRight,
  ChevronsUpDown,
  CircleCheck,
  Download,
  FileText,
  House,
  Image,
  Layers,
  LayoutDashboard,
  LogOut,
  Menu,
  MessageCircle,
  MessageSquare,
  Music,
  Pause,
  Pencil,
  Play,
  Plus,
  Search,
  Settings,
  ShieldCheck,
  Sparkles,
  Tag,
  Trash2,
  Upload,
  UserCog,
  Users,
  Video,
  X,
} from 'lucide-react';

// The app's one icon set: Lucide's icons (lucide-react, each imported by name so only the ones used are
// bundled) with the app's defaults (`icon`, in public-icons.tsx). Widgets, layouts and screens import from
// here; the sign-in route's own modules import from public-icons.tsx to keep this set out of its budget.

import { type IconProps, icon, NAV } from './public-icons';

export {
  CheckIcon,
  AlertIcon,
  BotIcon,
  ChatIcon,
  MegaphoneIcon,
  GlobeIcon,
  EyeIcon,
  EyeOffIcon,
  LogoMark,
  icon,
  type IconProps,
} from './public-icons';

export const CloseIcon = icon(X);
export const ChevronLeftIcon = icon(ChevronLeft);
export const ChevronRightIcon = icon(ChevronRight);
export const ChevronsLeftIcon = icon(ChevronsLeft);
export const ChevronsRightIcon = icon(ChevronsRight);
export const ChevronDownIcon = icon(ChevronDown);
export const SearchIcon = icon(Search);
export const PencilIcon = icon(Pencil);
export const TrashIcon = icon(Trash2);
export const CheckCircleIcon = icon(CircleCheck);

/** A column's sort state: both chevrons faint when unsorted, the one pointing the sort's way otherwise. */
export const SortIcon = ({ sortState, ...p }: IconProps & { sortState: 'asc' | 'desc' | false }) => {
  if (sortState === 'asc') return <ChevronUpSort {...p} />;
  if (sortState === 'desc') return <ChevronDownSort {...p} />;
  return <UnsortedIcon opacity={0.4} {...p} />;
};
const ChevronUpSort = icon(ChevronUp);
const ChevronDownSort = icon(ChevronDown);
const UnsortedIcon = icon(ChevronsUpDown);

export const PlusIcon = icon(Plus);
export const UploadIcon = icon(Upload);
export const DownloadIcon = icon(Download);
export const ChatBubbleIcon = icon(MessageCircle);
export const TagIcon = icon(Tag);
export const PauseIcon = icon(Pause);
export const PlayIcon = icon(Play);
export const ImageFileIcon = icon(Image);
export const VideoFileIcon = icon(Video);
export const AudioFileIcon = icon(Music);
export const DocumentFileIcon = icon(FileText);
export const HomeIcon = icon(House, NAV);
export const UsersIcon = icon(Users, NAV);
export const TeamIcon = icon(UserCog, NAV);
export const SettingsIcon = icon(Settings, NAV);
export const ImageIcon = icon(Image, NAV);
export const DashboardIcon = icon(LayoutDashboard, NAV);
export const BuildingIcon = icon(Building2, NAV);
export const ShieldIcon = icon(ShieldCheck, NAV);
export const LayersIcon = icon(Layers, NAV);
export const ChartIcon = icon(ChartLine, NAV);
export const MenuIcon = icon(Menu, NAV);
export const LogoutIcon = icon(LogOut, NAV);
export const ArrowRightIcon = icon(ArrowRight, NAV);
export const MessageSquareIcon = icon(MessageSquare, NAV);
export const SparkIcon = icon(Sparkles, NAV);
