/** manageTomokage: every digital human with its owner; hide from / show to its owner, delete (issue 21, 24). */
import { useState } from 'react';
import { Confirm } from '../../components/Modal.tsx';
import { Pager } from '../../components/Pager.tsx';
import { ta } from '../../i18n/admin.ts';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/messages.ts';
import { AdminPage, type Column, ExportButton, fmtTime, Table, useLoad } from './Console.tsx';

interface Human {
  id: number;
  name: string;
  fileName: string;
  format: string;
  sizeBytes: number;
  scheme: string;
  mapped: number;
  missing: string[];
  hidden: boolean;
  userId: number;
  ownerEmail: string | null;
  front: string | null;
  createAt: number;
}

const SIZE = 15;

export function ManageTomokagePage() {
  const [keyword, setKeyword] = useState('');
  const [applied, setApplied] = useState('');
  const [page, setPage] = useState(1);
  const [del, setDel] = useState<Human | null>(null);
  const [data, reload, busy] = useLoad(
    () =>
      api.post<{ list: Human[]; total: number }>('/admin/tomokage/search', {
        page,
        size: SIZE,
        ...(applied ? { keyword: applied } : {}),
      }),
    [page, applied],
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
  const columns: Column<Human>[] = [
    {
      key: 'f',
      title: '',
      width: 60,
      csv: () => null,
      render: (h) =>
        h.front ? (
          <img className="admin-thumb admin-thumb-tall" src={h.front} alt="" />
        ) : (
          <span className="admin-thumb admin-thumb-tall" />
        ),
    },
    { key: 'id', title: 'ID', render: (h) => h.id, width: 56 },
    { key: 'n', title: ta('tomo.name'), render: (h) => h.name },
    { key: 'o', title: ta('video.owner'), render: (h) => h.ownerEmail ?? `#${h.userId}` },
    {
      key: 'fmt',
      title: ta('tomo.format'),
      render: (h) => `${h.format} · ${(h.sizeBytes / 1048576).toFixed(1)} MB`,
    },
    {
      key: 's',
      title: ta('tomo.rig'),
      render: (h) => `${h.scheme} · ${h.mapped}${h.missing.length ? ` (−${h.missing.length})` : ''}`,
    },
    {
      key: 'h',
      title: ta('tomo.visible'),
      render: (h) => (
        <span className={`admin-pill ${h.hidden ? 'danger' : 'ok'}`}>
          {ta(h.hidden ? 'tomo.hidden' : 'tomo.shown')}
        </span>
      ),
      csv: (h) => (h.hidden ? 0 : 1),
    },
    { key: 'c', title: ta('admin.created'), render: (h) => fmtTime(h.createAt) },
  ];
  return (
    <AdminPage path="manageTomokage">
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
              placeholder={ta('tomo.keyword')}
              value={keyword}
              onChange={(e) => setKeyword(e.target.value)}
            />
            <button type="submit" className="btn btn-primary btn-sm">
              {ta('admin.search')}
            </button>
            <span className="admin-grow" />
            <ExportButton name="digital-humans.csv" columns={columns} rows={data?.list ?? []} />
          </form>
          <Table
            rowKey={(h) => h.id}
            rows={data?.list ?? []}
            loading={busy}
            testId="tomokage-table"
            columns={[
              ...columns,
              ...(canWrite
                ? [
                    {
                      key: 'a',
                      title: ta('admin.actions'),
                      render: (h: Human) => (
                        <span className="admin-actions">
                          <button
                            type="button"
                            className="btn btn-sm"
                            data-action={h.hidden ? 'show' : 'hide'}
                            onClick={() =>
                              act(() => api.post('/admin/tomokage/hide', { id: h.id, hidden: !h.hidden }))
                            }
                          >
                            {ta(h.hidden ? 'tomo.show' : 'tomo.hide')}
                          </button>
                          <button type="button" className="btn btn-sm btn-danger" onClick={() => setDel(h)}>
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
            text={ta('tomo.deleteConfirm', { name: del?.name ?? '', email: del?.ownerEmail ?? '' })}
            onCancel={() => setDel(null)}
            onOk={() => {
              const h = del!;
              setDel(null);
              void act(() => api.post('/admin/tomokage/delete', { ids: [h.id] }));
            }}
          />
        </>
      )}
    </AdminPage>
  );
}
