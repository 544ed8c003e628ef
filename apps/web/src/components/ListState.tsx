/** The states of a page that loads a list: the spinner while it loads, a line when it is empty, else the list. */
import type { ReactNode } from 'react';
import { Icon } from './Icon.tsx';

/** The spinner a page shows while it loads. */
export function PageLoading() {
  return (
    <div className="page-loading">
      <div className="spinner" />
    </div>
  );
}

/** `loading`: the spinner; `empty`: the icon, the text and an optional action; else the children (the list). */
export function ListState({
  loading,
  empty,
  icon,
  text,
  action,
  children,
}: {
  loading: boolean;
  empty: boolean;
  icon: string;
  text: ReactNode;
  action?: ReactNode;
  children: ReactNode;
}) {
  if (loading) return <PageLoading />;
  if (empty)
    return (
      <div className="empty">
        <Icon name={icon} size={48} />
        <p>{text}</p>
        {action}
      </div>
    );
  return children;
}
