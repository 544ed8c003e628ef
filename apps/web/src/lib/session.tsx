/**
 * The logged-in user, shared by every page. Loaded from `/auth/info` when a token exists; `refresh()` after
 * anything that changes coins, plan or the upload count.
 */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { getToken, setToken } from './cookies.ts';
import { fetchInfo, saveLastLogin } from './endpoints.ts';
import type { User } from './types.ts';

export interface Session {
  user: User | null;
  loading: boolean;
  hasToken: boolean;
  refresh: () => Promise<User | null>;
  /** Stores the token and loads the user (after login/register). */
  signIn: (token: string) => Promise<User | null>;
}

const Ctx = createContext<Session | null>(null);

export function SessionProvider({
  children,
  initialUser,
}: {
  children: ReactNode;
  initialUser?: User | null;
}) {
  const [user, setUser] = useState<User | null>(initialUser ?? null);
  const [loading, setLoading] = useState<boolean>(!initialUser && !!getToken());
  const [hasToken, setHasToken] = useState<boolean>(!!getToken());

  const refresh = useCallback(async () => {
    if (!getToken()) {
      setUser(null);
      setLoading(false);
      return null;
    }
    try {
      const u = await fetchInfo();
      setUser(u);
      return u;
    } catch {
      return null;
    } finally {
      setLoading(false);
    }
  }, []);

  const signIn = useCallback(
    async (token: string) => {
      setToken(token);
      setHasToken(true);
      const u = await refresh();
      void saveLastLogin();
      return u;
    },
    [refresh],
  );

  useEffect(() => {
    if (!initialUser && getToken()) void refresh();
  }, [initialUser, refresh]);

  const value = useMemo(
    () => ({ user, loading, hasToken, refresh, signIn }),
    [user, loading, hasToken, refresh, signIn],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useSession(): Session {
  const s = useContext(Ctx);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}
