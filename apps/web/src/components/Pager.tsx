/** Previous / page of pages / next, shown when there is more than one page. */
import { t } from '../lib/i18n.ts';

export function Pager({ page, pages, go }: { page: number; pages: number; go: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <div className="pager">
      <button type="button" className="btn btn-sm" disabled={page <= 1} onClick={() => go(page - 1)}>
        {t('common.prev')}
      </button>
      <span>
        {page} / {pages}
      </span>
      <button type="button" className="btn btn-sm" disabled={page >= pages} onClick={() => go(page + 1)}>
        {t('common.next')}
      </button>
    </div>
  );
}
