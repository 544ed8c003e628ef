import { useLocation, useNavigate } from 'react-router-dom';
import { adminPageTitle, ta } from '../i18n/admin.ts';
import { tlab } from '../i18n/lab.ts';
import { APP_VERSION, DIGITAL_HUMAN_URL } from '../lib/config.ts';
import { t } from '../lib/i18n.ts';
import { isMenuItemActive, type MenuItem, menuFor, menuItemForPath } from '../lib/menu.ts';
import { toast } from '../lib/messages.ts';
import { useSession } from '../lib/session.tsx';
import { addDigitalHumanBehavior } from '../lib/shell.ts';
import { tl } from '../pages/Animation.tsx';
import { useMyPages } from '../pages/admin/Console.tsx';
import { ADMIN_BUILT } from '../pages/admin/routes.tsx';
import { tm } from '../pages/Music.tsx';
import { CommunityPanel } from './CommunityPanel.tsx';
import { Icon } from './Icon.tsx';
import { BrandLogo } from './TopBar.tsx';
import { Tour } from './Tour.tsx';

/** The lab pages after music and the animation library (issue 22). */
const LAB_PAGES = [
  { path: '/index/mmd', label: 'lab.mmd', icon: 'bones' },
  { path: '/index/experiment', label: 'lab.experiment', icon: 'experiment' },
  { path: '/index/wisdom', label: 'lab.wisdom', icon: 'film' },
] as const;

/** Route names built so far; entries for pages of later issues are not shown. */
export const BUILT_ROUTES = new Set([
  'MyPro',
  'Upload',
  'Square',
  'UserDetailCompany',
  'Recharge',
  'Consume',
  'Tutorial',
  'Marked',
  'Experiment',
]);

export function visibleMenu(phone: boolean, company: boolean): readonly MenuItem[] {
  return menuFor({ phone, company }).filter((i) => BUILT_ROUTES.has(i.name));
}

/** Follows a menu entry, or warns 请先上传视频 when it is inactive. */
export function useMenuClick() {
  const navigate = useNavigate();
  const { user } = useSession();
  return (item: MenuItem) => {
    const active = isMenuItemActive(item, {
      hasUploaded: (user?.uploadCount ?? 0) > 0,
      company: !!user?.company,
    });
    if (!active) {
      toast.warning(t('menu.uploadFirst'));
      return;
    }
    navigate(item.path);
  };
}

/**
 * One entry of a sidebar menu: its icon and label, `on` on the current page (marked for assistive technology),
 * `inactive` greyed; `attrs` are the entry's data attributes (which entry it is, for tests and the tour).
 */
function MenuButton(props: {
  on: boolean;
  inactive?: boolean;
  icon: string;
  label: string;
  attrs: Record<string, string | number | boolean>;
  onClick: () => void;
}) {
  const { on, inactive = false, icon, label, attrs, onClick } = props;
  return (
    <button
      type="button"
      {...attrs}
      className={`menu-item${on ? ' on' : ''}${inactive ? ' inactive' : ''}`}
      aria-current={on ? 'page' : undefined}
      onClick={onClick}
    >
      <Icon name={icon} size={20} />
      <span>{label}</span>
    </button>
  );
}

export function Sidebar({ tomoMaintain }: { tomoMaintain: boolean }) {
  const { user } = useSession();
  const { pathname } = useLocation();
  const items = visibleMenu(false, !!user?.company);
  const current = menuItemForPath(items, pathname);
  const click = useMenuClick();
  const navigate = useNavigate();
  const hasUploaded = (user?.uploadCount ?? 0) > 0;
  return (
    <aside className="sidebar">
      <div className="brand">
        <BrandLogo />
        <span className="brand-name">{t('app.name')}</span>
      </div>
      <nav className="menu" aria-label={t('menu.label')}>
        {items.map((item) => {
          const active = isMenuItemActive(item, { hasUploaded, company: !!user?.company });
          const on = current?.value === item.value;
          return (
            <MenuButton
              key={item.value}
              on={on}
              inactive={!active}
              icon={on ? item.iconOn : item.icon}
              label={t(item.label)}
              attrs={{ 'data-menu-value': item.value, 'aria-disabled': !active }}
              onClick={() => click(item)}
            />
          );
        })}
      </nav>
      {/* The company menu is exactly its five entries (spec §2: the role company restricts the menu). */}
      {!user?.company && (
        <nav className="menu menu-lab" aria-label="lab">
          {[
            { path: '/index/music', icon: 'play', label: tm('menu.music') },
            { path: '/index/animation', icon: 'animation', label: tl('anim.title') },
            ...LAB_PAGES.map((l) => ({ ...l, label: tlab(l.label) })),
          ].map((l) => {
            const on = pathname.startsWith(l.path);
            return (
              <MenuButton
                key={l.path}
                on={on}
                icon={on ? `${l.icon}On` : l.icon}
                label={l.label}
                attrs={{ 'data-menu-path': l.path }}
                onClick={() => navigate(l.path)}
              />
            );
          })}
        </nav>
      )}
      <AdminMenu pathname={pathname} />
      <div className="sidebar-bottom">
        <Tour />
        {!user?.company && (
          <button
            type="button"
            className={`digital-human${tomoMaintain ? ' disabled' : ''}${pathname.startsWith('/index/tomokage') ? ' on' : ''}`}
            disabled={tomoMaintain}
            aria-disabled={tomoMaintain}
            data-testid="digital-human"
            title={tomoMaintain ? t('sidebar.digitalHumanMaintain') : undefined}
            onClick={() => {
              addDigitalHumanBehavior(pathname, 'open');
              if (DIGITAL_HUMAN_URL) window.open(DIGITAL_HUMAN_URL, '_blank', 'noreferrer');
              else navigate('/index/tomokage');
            }}
          >
            <Icon name="human" />
            {tomoMaintain ? t('sidebar.digitalHumanMaintain') : t('sidebar.digitalHuman')}
          </button>
        )}
        <CommunityPanel />
        <div className="version-label">{t('sidebar.version', { v: APP_VERSION })}</div>
      </div>
    </aside>
  );
}

/** Icons of console pages whose menu icon has no drawing of its own. */
const ADMIN_ICONS: Record<string, string> = {
  role: 'settings',
  menu: 'consume',
  audit: 'info',
  machine: 'wrench',
  model: 'bones',
  download: 'download',
  tomokage: 'human',
};

/** The console pages the account's roles open (from the server's role data), when any. */
function AdminMenu({ pathname }: { pathname: string }) {
  const pages = (useMyPages() ?? []).filter((p) => ADMIN_BUILT.has(p.path));
  const navigate = useNavigate();
  if (pages.length === 0) return null;
  return (
    <nav className="menu menu-admin" aria-label={ta('admin.section')} data-testid="admin-menu">
      <div className="menu-admin-title">{ta('admin.section')}</div>
      {pages.map((p) => {
        const to = `/index/${p.path}`;
        const on = pathname === to || pathname.startsWith(`${to}/`);
        return (
          <MenuButton
            key={p.path}
            on={on}
            icon={`${ADMIN_ICONS[p.icon] ?? p.icon}${on ? 'On' : ''}`}
            label={adminPageTitle(p.path) ?? p.title}
            attrs={{ 'data-admin-path': p.path }}
            onClick={() => navigate(to)}
          />
        );
      })}
    </nav>
  );
}

/** Phones: the menu as a bottom tab bar, the digital human (not for company accounts) and the user centre. */
export function MobileTabBar({ tomoMaintain = false }: { tomoMaintain?: boolean }) {
  const { user } = useSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const items = visibleMenu(true, !!user?.company);
  const current = menuItemForPath(items, pathname);
  const click = useMenuClick();
  const hasUploaded = (user?.uploadCount ?? 0) > 0;
  return (
    <nav className="tabbar" aria-label={t('menu.label')}>
      {items.map((item) => {
        const on = current?.value === item.value;
        const active = isMenuItemActive(item, { hasUploaded, company: !!user?.company });
        return (
          <button
            type="button"
            key={item.value}
            data-menu-value={item.value}
            className={`tab${on ? ' on' : ''}${active ? '' : ' inactive'}`}
            aria-disabled={!active}
            onClick={() => click(item)}
          >
            <Icon name={on ? item.iconOn : item.icon} size={22} />
            <span>{t(item.label)}</span>
          </button>
        );
      })}
      {!user?.company && (
        <button
          type="button"
          data-testid="tab-digital-human"
          className={`tab${pathname.startsWith('/index/tomokage') ? ' on' : ''}${tomoMaintain ? ' inactive' : ''}`}
          aria-disabled={tomoMaintain}
          title={tomoMaintain ? t('sidebar.digitalHumanMaintain') : undefined}
          onClick={() => {
            if (tomoMaintain) toast.warning(t('sidebar.digitalHumanMaintain'));
            else if (DIGITAL_HUMAN_URL) window.open(DIGITAL_HUMAN_URL, '_blank', 'noreferrer');
            else navigate('/index/tomokage');
          }}
        >
          <Icon name="human" size={22} />
          <span>{t('sidebar.digitalHuman')}</span>
        </button>
      )}
      <button
        type="button"
        className={`tab${pathname.startsWith('/userCenter') ? ' on' : ''}`}
        onClick={() => navigate('/userCenter?tab=1')}
      >
        <Icon name="user" size={22} />
        <span>{t('menu.me')}</span>
      </button>
    </nav>
  );
}
