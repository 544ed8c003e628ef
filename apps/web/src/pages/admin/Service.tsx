/** service: maintenance tooltip, version banner, price-list mark, filing record, and the start carousel's notices. */
import { useEffect, useState } from 'react';
import { Confirm, Modal, ModalButtons } from '../../components/Modal.tsx';
import { ta } from '../../i18n/admin.ts';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/messages.ts';
import { AdminPage, Field, fmtTime, Switch, Table, useLoad } from './Console.tsx';

interface Maintain {
  maintainBtn: boolean;
  markBtn: boolean;
  maintainText: string;
  versionBtn: boolean;
  versionText: string;
  plateNumber: string;
  plateNumberBtn: boolean;
  tomoMaintain: boolean;
}

interface Notice {
  id: number;
  page: number;
  jumpTo: string;
  button: string;
  url: string;
  type: number;
  title: string;
  content: string;
  enabled: boolean;
  updatedAt: number;
}

function MaintainForm({ canWrite }: { canWrite: boolean }) {
  const [info, reload] = useLoad(() => api.get<Maintain>('/sysConfig/maintainInfo'), []);
  const [f, setF] = useState<Maintain | null>(null);
  useEffect(() => setF(info), [info]);
  if (!f) return <div className="admin-card">{ta('admin.loading')}</div>;
  const save = async (path: string, body: Partial<Maintain>) => {
    try {
      await api.post(path, body);
      toast.success(ta('admin.saved'));
      await reload();
    } catch {
      /* shown */
    }
  };
  const set = (p: Partial<Maintain>) => setF({ ...f, ...p });
  return (
    <div className="admin-grid2">
      <section className="admin-card">
        <h2>{ta('service.maintain')}</h2>
        <Switch
          checked={f.maintainBtn}
          disabled={!canWrite}
          onChange={(v) => set({ maintainBtn: v })}
          label={ta('service.maintainOn')}
          testId="maintain-on"
        />
        <Field label="service.maintainText">
          <textarea
            className="input"
            rows={3}
            maxLength={2000}
            disabled={!canWrite}
            value={f.maintainText}
            data-testid="maintain-text"
            onChange={(e) => set({ maintainText: e.target.value })}
          />
        </Field>
        <h2>{ta('service.version')}</h2>
        <Switch
          checked={f.versionBtn}
          disabled={!canWrite}
          onChange={(v) => set({ versionBtn: v })}
          label={ta('service.versionOn')}
        />
        <Field label="service.versionText">
          <textarea
            className="input"
            rows={2}
            maxLength={2000}
            disabled={!canWrite}
            value={f.versionText}
            onChange={(e) => set({ versionText: e.target.value })}
          />
        </Field>
        <Switch
          checked={f.tomoMaintain}
          disabled={!canWrite}
          onChange={(v) => set({ tomoMaintain: v })}
          label={ta('service.tomo')}
        />
        {canWrite && (
          <div className="admin-row-end">
            <button
              type="button"
              className="btn btn-primary btn-sm"
              data-testid="maintain-save"
              onClick={() =>
                save('/sysConfig/saveMaintain', {
                  maintainBtn: f.maintainBtn,
                  maintainText: f.maintainText,
                  versionBtn: f.versionBtn,
                  versionText: f.versionText,
                  tomoMaintain: f.tomoMaintain,
                })
              }
            >
              {ta('admin.save')}
            </button>
          </div>
        )}
      </section>
      <section className="admin-card">
        <h2>{ta('service.mark')}</h2>
        <Switch
          checked={f.markBtn}
          disabled={!canWrite}
          onChange={(v) => {
            set({ markBtn: v });
            void save('/sysConfig/saveMark', { markBtn: v });
          }}
          label={ta('service.markOn')}
        />
        <h2>{ta('service.plate')}</h2>
        <Switch
          checked={f.plateNumberBtn}
          disabled={!canWrite}
          onChange={(v) => set({ plateNumberBtn: v })}
          label={ta('service.plateOn')}
        />
        <Field label="service.plateNumber">
          <input
            className="input"
            maxLength={128}
            disabled={!canWrite}
            value={f.plateNumber}
            onChange={(e) => set({ plateNumber: e.target.value })}
          />
        </Field>
        {canWrite && (
          <div className="admin-row-end">
            <button
              type="button"
              className="btn btn-primary btn-sm"
              onClick={() =>
                save('/sysConfig/savePlateNumber', {
                  plateNumber: f.plateNumber,
                  plateNumberBtn: f.plateNumberBtn,
                })
              }
            >
              {ta('admin.save')}
            </button>
          </div>
        )}
      </section>
    </div>
  );
}

const blank: Omit<Notice, 'id' | 'updatedAt'> = {
  page: 1,
  jumpTo: '',
  button: '',
  url: '',
  type: 1,
  title: '',
  content: '',
  enabled: true,
};

function NoticeDialog({
  n,
  onClose,
  onDone,
}: {
  n: Partial<Notice>;
  onClose: () => void;
  onDone: () => void;
}) {
  const [f, setF] = useState({ ...blank, ...n });
  const [busy, setBusy] = useState(false);
  const set = (p: Partial<Notice>) => setF({ ...f, ...p });
  const valid = f.title.trim().length > 0 || f.url.trim().length > 0;
  const ok = async () => {
    setBusy(true);
    try {
      await api.post('/notice/save', {
        ...(n.id ? { id: n.id } : {}),
        page: Number(f.page) || 0,
        jumpTo: f.jumpTo,
        button: f.button,
        url: f.url,
        type: f.type,
        title: f.title,
        content: f.content,
        enabled: f.enabled,
      });
      toast.success(ta('admin.saved'));
      onClose();
      onDone();
    } catch {
      /* shown */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={n.id ? ta('service.noticeEdit') : ta('service.noticeNew')}
      onClose={onClose}
      width={640}
      footer={<ModalButtons onCancel={onClose} onOk={ok} busy={busy || !valid} okText={ta('admin.save')} />}
    >
      <div className="admin-form2">
        <Field label="notice.title">
          <input
            className="input"
            maxLength={255}
            value={f.title}
            data-testid="notice-title"
            onChange={(e) => set({ title: e.target.value })}
          />
        </Field>
        <Field label="notice.page">
          <input
            className="input"
            type="number"
            value={f.page}
            onChange={(e) => set({ page: Number(e.target.value) })}
          />
        </Field>
        <Field label="notice.type">
          <select className="input" value={f.type} onChange={(e) => set({ type: Number(e.target.value) })}>
            <option value={1}>{ta('notice.typeImage')}</option>
            <option value={2}>{ta('notice.typeVideo')}</option>
          </select>
        </Field>
        <Field label="notice.button">
          <input
            className="input"
            maxLength={64}
            value={f.button}
            data-testid="notice-button"
            onChange={(e) => set({ button: e.target.value })}
          />
        </Field>
      </div>
      <Field label="notice.url">
        <input
          className="input"
          maxLength={1024}
          value={f.url}
          data-testid="notice-url"
          onChange={(e) => set({ url: e.target.value })}
        />
      </Field>
      <Field label="notice.jumpTo">
        <input
          className="input"
          maxLength={1024}
          value={f.jumpTo}
          onChange={(e) => set({ jumpTo: e.target.value })}
        />
      </Field>
      <Field label="notice.content">
        <textarea
          className="input"
          rows={3}
          value={f.content}
          data-testid="notice-content"
          onChange={(e) => set({ content: e.target.value })}
        />
      </Field>
      <Switch checked={f.enabled} onChange={(v) => set({ enabled: v })} label={ta('notice.enabled')} />
      {f.url && (
        <div className="admin-notice-preview">
          <span className="admin-muted">{ta('notice.preview')}</span>
          {f.type === 2 ? <video src={f.url} muted controls /> : <img src={f.url} alt="" />}
        </div>
      )}
    </Modal>
  );
}

function Notices({ canWrite }: { canWrite: boolean }) {
  const [list, reload, busy] = useLoad(() => api.post<Notice[]>('/notice/list'), []);
  const [edit, setEdit] = useState<Partial<Notice> | null>(null);
  const [del, setDel] = useState<Notice | null>(null);
  return (
    <section className="admin-card">
      <div className="admin-card-head">
        <h2>{ta('service.notices')}</h2>
        {canWrite && (
          <button
            type="button"
            className="btn btn-primary btn-sm"
            data-testid="notice-new"
            onClick={() => setEdit({})}
          >
            {ta('service.noticeNew')}
          </button>
        )}
      </div>
      <Table
        rowKey={(n) => n.id}
        rows={[...(list ?? [])].sort((a, b) => a.page - b.page)}
        loading={busy}
        testId="notice-table"
        columns={[
          { key: 'p', title: ta('notice.page'), render: (n) => n.page, width: 80 },
          { key: 't', title: ta('notice.title'), render: (n) => n.title },
          {
            key: 'ty',
            title: ta('notice.type'),
            render: (n) => ta(n.type === 2 ? 'notice.typeVideo' : 'notice.typeImage'),
          },
          { key: 'b', title: ta('notice.button'), render: (n) => n.button || '—' },
          { key: 'e', title: ta('notice.enabled'), render: (n) => ta(n.enabled ? 'admin.yes' : 'admin.no') },
          { key: 'u', title: ta('admin.updated'), render: (n) => fmtTime(n.updatedAt) },
          ...(canWrite
            ? [
                {
                  key: 'a',
                  title: ta('admin.actions'),
                  render: (n: Notice) => (
                    <span className="admin-actions">
                      <button type="button" className="btn btn-sm" onClick={() => setEdit(n)}>
                        {ta('admin.edit')}
                      </button>
                      <button type="button" className="btn btn-sm btn-danger" onClick={() => setDel(n)}>
                        {ta('admin.delete')}
                      </button>
                    </span>
                  ),
                },
              ]
            : []),
        ]}
      />
      {edit && <NoticeDialog n={edit} onClose={() => setEdit(null)} onDone={reload} />}
      <Confirm
        open={!!del}
        danger
        title={ta('admin.delete')}
        text={ta('notice.deleteConfirm', { title: del?.title ?? '' })}
        onCancel={() => setDel(null)}
        onOk={async () => {
          const n = del!;
          setDel(null);
          try {
            await api.del(`/notice/${n.id}`);
            toast.success(ta('admin.done'));
            await reload();
          } catch {
            /* shown */
          }
        }}
      />
    </section>
  );
}

export function ServicePage() {
  return (
    <AdminPage path="service">
      {(canWrite) => (
        <>
          <MaintainForm canWrite={canWrite} />
          <Notices canWrite={canWrite} />
        </>
      )}
    </AdminPage>
  );
}
