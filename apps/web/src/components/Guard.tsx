import { type ReactNode, useEffect } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { getToken } from '../lib/cookies.ts';
import { guard } from '../lib/guard.ts';
import { t } from '../lib/i18n.ts';

/** Applies the navigation guard on every route change: page title, and /home for protected paths without a token. */
export function Guard({ children }: { children: ReactNode }) {
  const { pathname, search } = useLocation();
  const result = guard(pathname, !!getToken());
  useEffect(() => {
    document.title = `${t(result.titleKey)} · ${t('app.name')}`;
  }, [result.titleKey]);
  if (result.redirect && result.redirect !== pathname)
    return <Navigate to={result.redirect} replace state={{ from: pathname + search }} />;
  return <>{children}</>;
}
