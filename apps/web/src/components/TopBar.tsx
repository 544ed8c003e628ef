import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { tsh } from '../i18n/shell.ts';
import { forceLogout } from '../lib/api.ts';
import { logout } from '../lib/endpoints.ts';
import { getLang, type Lang, switchLang, t } from '../lib/i18n.ts';
import type { Plan } from '../lib/plans.ts';
import { useSession } from '../lib/session.tsx';
import type { MaintainInfo } from '../lib/types.ts';
import { Icon } from './Icon.tsx';
import '../styles/shell.css';

export function PlanBadge({ plan }: { plan: Plan }) {
  return <span className={`plan-badge plan-${plan}`}>{t(`plan.${plan}`)}</span>;
}

/** The top bar's badge: an administrator's role (not the free plan its account happens to have), else the plan. */
export function RoleBadge({ user }: { user: { admin: boolean; plan: Plan } }) {
  if (user.admin)
    return (
      <span className="plan-badge plan-admin" data-testid="role-badge">
        {t('role.admin')}
      </span>
    );
  return <PlanBadge plan={user.plan} />;
}

/** The product's mark (`small`: the phone header's). */
export function BrandLogo({ small = false }: { small?: boolean }) {
  return (
    <span className={small ? 'brand-logo small' : 'brand-logo'}>
      <Icon name="human" size={small ? 18 : 22} />
    </span>
  );
}

/** The product's mark and name, linking to the home page. */
export function BrandLink() {
  return (
    <Link to="/home" className="brand">
      <BrandLogo />
      <span className="brand-name">{t('app.name')}</span>
    </Link>
  );
}

/** A page's head: back (to the previous page, else the projects), the title, the language switch. */
export function BackHead({ title }: { title: string }) {
  const navigate = useNavigate();
  return (
    <header className="center-head">
      <button
        type="button"
        className="btn btn-ghost"
        onClick={() => (history.length > 1 ? navigate(-1) : navigate('/index/myPro'))}
      >
        <Icon name="back" /> {t('common.back')}
      </button>
      <h1>{title}</h1>
      <LangSwitch />
    </header>
  );
}

export function LangSwitch() {
  const lang = getLang();
  const other: Lang = lang === 'en' ? 'zh' : 'en';
  return (
    <button
      type="button"
      className="lang-switch"
      data-testid="lang-switch"
      title={t('lang.switch')}
      onClick={() => switchLang(other)}
    >
      <Icon name="globe" size={16} />
      {other === 'zh' ? '中文' : 'English'}
    </button>
  );
}

export async function signOut(): Promise<void> {
  try {
    await logout();
  } catch {
    /* the token is dropped either way */
  }
  forceLogout();
}

/** `YYYY-MM-DD HH:mm` in the browser's time zone. */
function localTime(iso: string): string {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

export function UserMenu() {
  const { user } = useSession();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);
  if (!user) return null;
  return (
    <div className="user-menu" ref={ref}>
      <button
        type="button"
        className="user-menu-btn"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        <span className="avatar">{(user.username || user.email).slice(0, 1).toUpperCase()}</span>
        <span className="user-email" data-testid="user-email">
          {user.email}
        </span>
        <Icon name="chevron" size={14} />
      </button>
      {open && (
        <div className="dropdown" role="menu">
          {user.previousLoginAt !== undefined && (
            <div className="dropdown-note" data-testid="last-login">
              {user.previousLoginAt
                ? tsh('login.last', { time: localTime(user.previousLoginAt) })
                : tsh('login.first')}
            </div>
          )}
          <button type="button" role="menuitem" onClick={() => navigate('/userCenter?tab=1')}>
            <Icon name="settings" size={16} />
            {t('userMenu.settings')}
          </button>
          {!user.company &&
            (['2', '3', '4'] as const).map((k) => (
              <button key={k} type="button" role="menuitem" onClick={() => navigate(`/userCenter?tab=${k}`)}>
                <Icon name={k === '2' ? 'coin' : k === '3' ? 'share' : 'recharge'} size={16} />
                {t(k === '2' ? 'userMenu.payPlan' : k === '3' ? 'userMenu.invite' : 'userMenu.cashback')}
              </button>
            ))}
          <button type="button" role="menuitem" onClick={() => void signOut()}>
            <Icon name="logout" size={16} />
            {t('userMenu.logout')}
          </button>
        </div>
      )}
    </div>
  );
}

export function MaintainTip({ info }: { info: MaintainInfo | null }) {
  if (!info?.maintainBtn || !info.maintainText) return null;
  return (
    <button
      type="button"
      className="maintain-tip"
      data-testid="maintain-tip"
      aria-describedby="maintain-text"
    >
      <Icon name="wrench" size={16} />
      <span>{t('maintain.label')}</span>
      <span className="tooltip" role="tooltip" id="maintain-text">
        {info.maintainText}
      </span>
    </button>
  );
}

export function TopBar({ title, maintain }: { title: string; maintain: MaintainInfo | null }) {
  const { user } = useSession();
  return (
    <header className="topbar">
      <div className="topbar-title">{title}</div>
      <MaintainTip info={maintain} />
      <div className="topbar-right">
        {user && (
          <span className="coins" title={t('coins.balance')} data-testid="coins">
            <Icon name="coin" size={16} />
            {user.company ? `${user.cvCoin} CV` : `${user.surplus} V`}
          </span>
        )}
        {user?.admin && <RoleBadge user={user} />}
        {user && !user.company && !user.admin && (
          <Link to="/asPay/index" className="plan-link" title={t('title.asPay')} data-testid="plan-link">
            <PlanBadge plan={user.plan} />
          </Link>
        )}
        <LangSwitch />
        <UserMenu />
      </div>
    </header>
  );
}
