/** Previous / page of pages / next, shown when there is more than one page. */
import type { ReactNode } from 'react';
import { t } from '../lib/i18n.ts';

export function Pager({
  page,
  pages,
  go,
  className = 'pager',
  small = false,
  prev = t('common.prev'),
  next = t('common.next'),
}: {
  page: number;
  pages: number;
  go: (page: number) => void;
  className?: string;
  /** `btn-small` buttons instead of `btn-sm`. */
  small?: boolean;
  prev?: ReactNode;
  next?: ReactNode;
}) {
  if (pages <= 1) return null;
  const btn = small ? 'btn btn-small' : 'btn btn-sm';
  return (
    <div className={className}>
      <button type="button" className={btn} disabled={page <= 1} onClick={() => go(page - 1)}>
        {prev}
      </button>
      <span>
        {page} / {pages}
      </span>
      <button type="button" className={btn} disabled={page >= pages} onClick={() => go(page + 1)}>
        {next}
      </button>
    </div>
  );
}
