/**
 * manageAnimation: the animation library's every animation (published and hidden); publish, hide, delete
 * (issue 22). The menu's `animationManage` path opens the same page.
 */
import { useState } from 'react';
import { Confirm } from '../../components/Modal.tsx';
import { Pager } from '../../components/Pager.tsx';
import { ta } from '../../i18n/admin.ts';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/messages.ts';
import { categoryLabel, type LibraryAnimation, tl } from '../Animation.tsx';
import { AdminPage, type Column, ExportButton, Table, useLoad } from './Console.tsx';

const SIZE = 15;

export function ManageAnimationPage() {
  const [keyword, setKeyword] = useState('');
  const [applied, setApplied] = useState('');
  const [status, setStatus] = useState<'' | '0' | '1'>('');
  const [page, setPage] = useState(1);
  const [del, setDel] = useState<LibraryAnimation | null>(null);
  const [data, reload, busy] = useLoad(
    () =>
      api.post<{ list: LibraryAnimation[]; total: number }>('/admin/animation/search', {
        page,
        size: SIZE,
        ...(applied ? { keyword: applied } : {}),
        ...(status ? { status: Number(status) } : {}),
      }),
    [page, applied, status],
  );
  const act = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
      toast.success(ta('admin.done'));
      await reload();
    } catch {
      /* shown */
    }
  };
  const columns: Column<LibraryAnimation>[] = [
    { key: 'id', title: 'ID', render: (a) => a.id, width: 56 },
    { key: 'n', title: tl('animAdmin.name'), render: (a) => a.name },
    {
      key: 'c',
      title: tl('animAdmin.category'),
      render: (a) => categoryLabel(a.category),
      csv: (a) => a.category,
    },
    { key: 't', title: tl('animAdmin.tags'), render: (a) => a.tags.join(', ') },
    {
      key: 'l',
      title: tl('animAdmin.length'),
      render: (a) => tl('anim.seconds', { s: a.duration.toFixed(1) }),
      csv: (a) => a.duration,
    },
    { key: 'p', title: tl('animAdmin.price'), render: (a) => `${a.price} V`, csv: (a) => a.price },
    { key: 'd', title: tl('animAdmin.downloads'), render: (a) => a.downloads },
    {
      key: 's',
      title: tl('animAdmin.status'),
      render: (a) => (
        <span className={`admin-pill ${a.status === 1 ? 'ok' : 'danger'}`}>
          {tl(a.status === 1 ? 'animAdmin.published' : 'animAdmin.hidden')}
        </span>
      ),
      csv: (a) => a.status,
    },
  ];
  return (
    <AdminPage path="manageAnimation">
      {(canWrite) => (
        <>
          <form
            className="admin-filters"
            onSubmit={(e) => {
              e.preventDefault();
              setPage(1);
              setApplied(keyword.trim());
            }}
          >
            <input
              className="input"
              placeholder={tl('animAdmin.keyword')}
              value={keyword}
              onChange={(e) => setKeyword(e.target.value)}
            />
            <select
              className="input"
              aria-label={tl('animAdmin.status')}
              value={status}
              onChange={(e) => {
                setPage(1);
                setStatus(e.target.value as '' | '0' | '1');
              }}
            >
              <option value="">{tl('animAdmin.all')}</option>
              <option value="1">{tl('animAdmin.published')}</option>
              <option value="0">{tl('animAdmin.hidden')}</option>
            </select>
            <button type="submit" className="btn btn-primary btn-sm">
              {ta('admin.search')}
            </button>
            <span className="admin-grow" />
            <ExportButton name="animations.csv" columns={columns} rows={data?.list ?? []} />
          </form>
          <Table
            rowKey={(a) => a.id}
            rows={data?.list ?? []}
            loading={busy}
            testId="animation-table"
            columns={[
              ...columns,
              ...(canWrite
                ? [
                    {
                      key: 'a',
                      title: ta('admin.actions'),
                      render: (a: LibraryAnimation) => (
                        <span className="admin-actions">
                          <button
                            type="button"
                            className="btn btn-sm"
                            data-action={a.status === 1 ? 'hide' : 'publish'}
                            onClick={() =>
                              act(() =>
                                api.post('/admin/animation/publish', { id: a.id, published: a.status !== 1 }),
                              )
                            }
                          >
                            {tl(a.status === 1 ? 'animAdmin.hide' : 'animAdmin.publish')}
                          </button>
                          <button type="button" className="btn btn-sm btn-danger" onClick={() => setDel(a)}>
                            {ta('admin.delete')}
                          </button>
                        </span>
                      ),
                    },
                  ]
                : []),
            ]}
          />
          <div className="admin-foot">
            <span className="admin-muted">{ta('admin.total', { n: data?.total ?? 0 })}</span>
            <Pager page={page} pages={Math.ceil((data?.total ?? 0) / SIZE)} go={setPage} />
          </div>
          <Confirm
            open={!!del}
            danger
            title={ta('admin.delete')}
            text={tl('animAdmin.deleteConfirm', { name: del?.name ?? '' })}
            onCancel={() => setDel(null)}
            onOk={() => {
              const a = del!;
              setDel(null);
              void act(() => api.post('/admin/animation/delete', { ids: [a.id] }));
            }}
          />
        </>
      )}
    </AdminPage>
  );
}
