import { useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { api } from '../lib/api.ts';
import { isPhone } from '../lib/device.ts';
import { getNotices, maintainInfo } from '../lib/endpoints.ts';
import { titleKeyFor } from '../lib/guard.ts';
import { t } from '../lib/i18n.ts';
import { useSession } from '../lib/session.tsx';
import type { MaintainInfo, Notice } from '../lib/types.ts';
import { useAdminTitle } from '../pages/admin/Console.tsx';
import { Announcement } from './Announcement.tsx';
import { Footer } from './Footer.tsx';
import { Icon } from './Icon.tsx';
import { NoticeCarousel } from './NoticeCarousel.tsx';
import { MobileTabBar, Sidebar } from './Sidebar.tsx';
import { BrandLogo, LangSwitch, RoleBadge, TopBar } from './TopBar.tsx';

const NOTICES_SEEN = 'mocap_notices_seen';

/** Maintenance info, shared by the shell pieces; loaded once per page load. */
let maintainCache: Promise<MaintainInfo | null> | null = null;
export function useMaintain(): MaintainInfo | null {
  const [info, setInfo] = useState<MaintainInfo | null>(null);
  useEffect(() => {
    maintainCache ??= maintainInfo().catch(() => null);
    let live = true;
    void maintainCache.then((m) => live && setInfo(m));
    return () => {
      live = false;
    };
  }, []);
  return info;
}

/** The main layout of /index/*: sidebar (or tab bar on phones), top bar, announcement, notices, footer. */
export function Layout() {
  const { user, loading } = useSession();
  const { pathname } = useLocation();
  const phone = isPhone();
  const maintain = useMaintain();
  const [notices, setNotices] = useState<Notice[]>([]);
  const [tomoMaintain, setTomoMaintain] = useState(false);
  const adminTitle = useAdminTitle();

  useEffect(() => {
    if (sessionStorage.getItem(NOTICES_SEEN)) return;
    getNotices()
      .then((list) => {
        sessionStorage.setItem(NOTICES_SEEN, '1');
        setNotices(list);
      })
      .catch(() => undefined);
    api
      .get<unknown>('/tomokage/checkMaintain', { silent: true })
      .then((d) => setTomoMaintain(!!(d as { tomoMaintain?: unknown })?.tomoMaintain))
      .catch(() => undefined);
  }, []);

  if (loading && !user)
    return (
      <div className="page-loading">
        <div className="spinner" />
      </div>
    );
  if (!loading && !user) return <Navigate to="/home" replace />;

  const title = adminTitle ?? t(titleKeyFor(pathname));
  const carousel = notices.length > 0 && <NoticeCarousel notices={notices} onClose={() => setNotices([])} />;

  if (phone)
    return (
      <div className="m-layout">
        <header className="m-header">
          <BrandLogo small />
          <span className="m-title">{title}</span>
          {user && (
            <span className="coins" data-testid="coins">
              <Icon name="coin" size={14} />
              {user.company ? `${user.cvCoin} CV` : `${user.surplus} V`}
            </span>
          )}
          {user && !user.company && <RoleBadge user={user} />}
          <LangSwitch />
        </header>
        <Announcement info={maintain} />
        <main className="m-main">
          <Outlet />
        </main>
        <MobileTabBar tomoMaintain={tomoMaintain} />
        {carousel}
      </div>
    );

  return (
    <div className="layout">
      <Sidebar tomoMaintain={tomoMaintain} />
      <div className="main-col">
        <TopBar title={title} maintain={maintain} />
        <Announcement info={maintain} />
        <main className="main">
          <Outlet />
        </main>
        <Footer maintain={maintain} />
      </div>
      {carousel}
    </div>
  );
}

/** myPro and upload go to the PC or the mobile page by device, keeping the query (spec §2). */
export function DeviceRedirect({ pc, mobile }: { pc: string; mobile: string }) {
  const { search } = useLocation();
  return <Navigate to={`${isPhone() ? mobile : pc}${search}`} replace />;
}
