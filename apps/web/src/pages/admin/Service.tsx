/** service: maintenance tooltip, version banner, price-list mark, filing record, and the start carousel's notices. */
import type { MaintainInfo as Maintain, Notice } from '@mocap/contracts';
import { useEffect, useState } from 'react';
import { ta } from '../../i18n/admin.ts';
import { api } from '../../lib/api.ts';
import { CommunitySettings } from './Community.tsx';
import { AdminPage, Field, fmtTime, Switch, Table, useLoad } from './Console.tsx';
import { act, actionsColumn, Btn, ConfirmAct, EditDelete, FormDialog, TextInput, useOk } from './kit.tsx';

function MaintainForm({ canWrite }: { canWrite: boolean }) {
  const [info, reload] = useLoad(() => api.get<Maintain>('/sysConfig/maintainInfo'), []);
  const [f, setF] = useState<Maintain | null>(null);
  useEffect(() => setF(info), [info]);
  if (!f) return <div className="admin-card">{ta('admin.loading')}</div>;
  const save = (path: string, body: Partial<Maintain>) =>
    act(() => api.post(path, body), reload, 'admin.saved');
  const set = (p: Partial<Maintain>) => setF({ ...f, ...p });
  const toggle = (
    k: 'maintainBtn' | 'versionBtn' | 'tomoMaintain' | 'plateNumberBtn',
    label: string,
    testId?: string,
  ) => (
    <Switch
      checked={f[k]}
      disabled={!canWrite}
      onChange={(v) => set({ [k]: v })}
      label={label}
      testId={testId}
    />
  );
  const text = (k: 'maintainText' | 'versionText', rows: number, testId?: string) => (
    <textarea
      className="input"
      rows={rows}
      maxLength={2000}
      disabled={!canWrite}
      value={f[k]}
      data-testid={testId}
      onChange={(e) => set({ [k]: e.target.value })}
    />
  );
  const saveButton = (onClick: () => unknown, testId?: string) =>
    canWrite && (
      <div className="admin-row-end">
        <Btn primary label={ta('admin.save')} testId={testId} onClick={onClick} />
      </div>
    );
  return (
    <div className="admin-grid2">
      <section className="admin-card">
        <h2>{ta('service.maintain')}</h2>
        {toggle('maintainBtn', ta('service.maintainOn'), 'maintain-on')}
        <Field label="service.maintainText">{text('maintainText', 3, 'maintain-text')}</Field>
        <h2>{ta('service.version')}</h2>
        {toggle('versionBtn', ta('service.versionOn'))}
        <Field label="service.versionText">{text('versionText', 2)}</Field>
        {toggle('tomoMaintain', ta('service.tomo'))}
        {saveButton(
          () =>
            save('/sysConfig/saveMaintain', {
              maintainBtn: f.maintainBtn,
              maintainText: f.maintainText,
              versionBtn: f.versionBtn,
              versionText: f.versionText,
              tomoMaintain: f.tomoMaintain,
            }),
          'maintain-save',
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
        {toggle('plateNumberBtn', ta('service.plateOn'))}
        <Field label="service.plateNumber">
          <input
            className="input"
            maxLength={128}
            disabled={!canWrite}
            value={f.plateNumber}
            onChange={(e) => set({ plateNumber: e.target.value })}
          />
        </Field>
        {saveButton(() =>
          save('/sysConfig/savePlateNumber', {
            plateNumber: f.plateNumber,
            plateNumberBtn: f.plateNumberBtn,
          }),
        )}
      </section>
    </div>
  );
}

const blank: Omit<Notice, 'id' | 'createdAt' | 'updatedAt'> = {
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
  const set = (p: Partial<Notice>) => setF({ ...f, ...p });
  const valid = f.title.trim().length > 0 || f.url.trim().length > 0;
  const [busy, ok] = useOk(
    () =>
      api.post('/notice/save', {
        ...(n.id ? { id: n.id } : {}),
        page: Number(f.page) || 0,
        jumpTo: f.jumpTo,
        button: f.button,
        url: f.url,
        type: f.type,
        title: f.title,
        content: f.content,
        enabled: f.enabled,
      }),
    onClose,
    onDone,
    'admin.saved',
  );
  const input = (k: 'title' | 'button' | 'url' | 'jumpTo', maxLength: number, testId?: string) => (
    <TextInput maxLength={maxLength} value={f[k]} set={(v) => set({ [k]: v })} testId={testId} />
  );
  return (
    <FormDialog
      title={n.id ? ta('service.noticeEdit') : ta('service.noticeNew')}
      onClose={onClose}
      width={640}
      onOk={ok}
      busy={busy || !valid}
    >
      <div className="admin-form2">
        <Field label="notice.title">{input('title', 255, 'notice-title')}</Field>
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
        <Field label="notice.button">{input('button', 64, 'notice-button')}</Field>
      </div>
      <Field label="notice.url">{input('url', 1024, 'notice-url')}</Field>
      <Field label="notice.jumpTo">{input('jumpTo', 1024)}</Field>
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
    </FormDialog>
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
          <Btn primary label={ta('service.noticeNew')} testId="notice-new" onClick={() => setEdit({})} />
        )}
      </div>
      <Table
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
          ...actionsColumn(canWrite, (n: Notice) => (
            <EditDelete onEdit={() => setEdit(n)} onDelete={() => setDel(n)} />
          )),
        ]}
      />
      {edit && <NoticeDialog n={edit} onClose={() => setEdit(null)} onDone={reload} />}
      <ConfirmAct
        item={del}
        text={(n) => ta('notice.deleteConfirm', { title: n.title })}
        close={() => setDel(null)}
        run={(n) => api.del(`/notice/${n.id}`)}
        after={reload}
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
          <CommunitySettings canWrite={canWrite} />
        </>
      )}
    </AdminPage>
  );
}
