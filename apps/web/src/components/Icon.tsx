/** Inline SVG icons (no icon font to download). `name` as in the menu items' icon/iconOn fields. */
import type { ReactNode } from 'react';

const PATHS: Record<string, string> = {
  home: 'M3 11.5 12 4l9 7.5V20a1 1 0 0 1-1 1h-5v-6h-6v6H4a1 1 0 0 1-1-1z',
  upload: 'M12 3v12M6.5 8.5 12 3l5.5 5.5M4 15v4a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-4',
  square: 'M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z',
  experiment: 'M9 3h6M10 3v6L4.5 18.5A2 2 0 0 0 6.2 21h11.6a2 2 0 0 0 1.7-2.5L14 9V3',
  user: 'M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9zM3.5 21a8.5 8.5 0 0 1 17 0',
  company: 'M4 21V5l8-2v18M12 8h8v13M7 8h2M7 12h2M7 16h2M15 12h2M15 16h2',
  recharge: 'M12 2v20M17 6H9.5a3.5 3.5 0 0 0 0 7h5a3.5 3.5 0 0 1 0 7H6',
  consume: 'M4 4h16v16H4zM8 9h8M8 13h8M8 17h5',
  tutorial: 'M4 5a2 2 0 0 1 2-2h13v16H6a2 2 0 0 0-2 2zM4 21V5M8 7h7',
  block: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM5.6 5.6l12.8 12.8',
  briefing: 'M4 20V10M10 20V4M16 20v-7M22 20H2',
  extension: 'M4 12h16M14 6l6 6-6 6',
  service: 'M14.7 6.3a4 4 0 0 0-5.4 5.4L3 18l3 3 6.3-6.3a4 4 0 0 0 5.4-5.4l-2.6 2.6-2.8-.4-.4-2.8z',
  video: 'M3 6h13v12H3zM16 10l5-3v10l-5-3',
  tag: 'M3 12V3h9l9 9-9 9zM7.5 7.5h.01',
  animation: 'M5 3l14 9-14 9z',
  play: 'M7 4l13 8-13 8z',
  pause: 'M7 4h4v16H7zM13 4h4v16h-4z',
  close: 'M6 6l12 12M18 6 6 18',
  search: 'M11 19a8 8 0 1 0 0-16 8 8 0 0 0 0 16zM21 21l-4.3-4.3',
  download: 'M12 3v12M6.5 9.5 12 15l5.5-5.5M4 19h16',
  edit: 'M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4',
  trash: 'M4 7h16M9 7V4h6v3M6 7l1 14h10l1-14',
  redo: 'M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7',
  share: 'M4 12v8h16v-8M12 3v12M7.5 7.5 12 3l4.5 4.5',
  star: 'M12 3l2.8 5.8 6.2.9-4.5 4.4 1.1 6.2L12 17.4l-5.6 2.9 1.1-6.2L3 9.7l6.2-.9z',
  message: 'M4 4h16v12H8l-4 4z',
  eye: 'M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12zM12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z',
  chevron: 'M6 9l6 6 6-6',
  back: 'M15 18l-6-6 6-6',
  globe: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18',
  logout: 'M15 4h4a1 1 0 0 1 1 1v14a1 1 0 0 1-1 1h-4M10 8l-4 4 4 4M6 12h11',
  settings:
    'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z',
  info: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 11v6M12 7.5h.01',
  wrench: 'M14.7 6.3a4 4 0 0 0-5.4 5.4L3 18l3 3 6.3-6.3a4 4 0 0 0 5.4-5.4l-2.6 2.6-2.8-.4-.4-2.8z',
  film: 'M4 3h16v18H4zM8 3v18M16 3v18M4 8h4M4 13h4M4 18h4M16 8h4M16 13h4M16 18h4',
  bones: 'M12 4.5a1.5 1.5 0 1 0 0 .01M12 7v6M12 9l-5 3M12 9l5 3M12 13l-3.5 7M12 13l3.5 7',
  coin: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM9 9.5h4.5a2 2 0 0 1 0 4H10.5a2 2 0 0 0 0 4H15M12 7v2.5M12 17.5V20',
  check: 'M5 12l5 5L20 7',
  warning: 'M12 3 2 20h20zM12 10v4M12 17h.01',
  human: 'M12 7a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5zM6 9h12M12 9v6M9 22l3-7 3 7',
};

export function Icon({ name, size = 18, className }: { name: string; size?: number; className?: string }) {
  const base = name.endsWith('On') ? name.slice(0, -2) : name;
  const d = PATHS[base] ?? PATHS.info;
  const filled = name.endsWith('On') && (base === 'star' || base === 'play' || base === 'animation');
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill={filled ? 'currentColor' : 'none'}
      stroke="currentColor"
      strokeWidth={name.endsWith('On') ? 2.3 : 1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={d} />
    </svg>
  );
}

/** A square icon button with a tooltip (`title`) and an optional `data-action` for tests. */
export function IconButton({
  icon,
  title,
  action,
  on,
  danger,
  disabled,
  onClick,
}: {
  icon: string;
  title: string;
  action?: string;
  on?: boolean;
  danger?: boolean;
  disabled?: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className={`icon-btn${on ? ' on' : ''}${danger ? ' danger' : ''}`}
      title={title}
      aria-label={title}
      data-action={action}
      disabled={disabled}
      onClick={onClick}
    >
      <Icon name={icon} />
    </button>
  );
}

/** A text button led by its icon (`size` px), with a `data-action` for tests. */
export function IconTextButton({
  icon,
  size = 14,
  className = 'btn btn-sm',
  action,
  disabled,
  onClick,
  children,
}: {
  icon: string;
  size?: number;
  className?: string;
  action: string;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button type="button" className={className} disabled={disabled} onClick={onClick} data-action={action}>
      <Icon name={icon} size={size} /> {children}
    </button>
  );
}
