/** machineManage: the capture workers, live from their heartbeats; disable drains a machine (issue 21). */
import type { MachineMeta, MachineView } from '@mocap/contracts';
import { useEffect, useState } from 'react';
import { type AdminKey, ta } from '../../i18n/admin.ts';
import { api } from '../../lib/api.ts';
import { AdminPage, fmtTime, Table, useLoad } from './Console.tsx';
import { act, actionsColumn, Btn, ConfirmAct } from './kit.tsx';

/** A machine as listed, its heartbeat `meta` read as workers send it. */
type Machine = Omit<MachineView, 'meta'> & { meta: MachineMeta };

function stateOf(m: Machine): { key: AdminKey; cls: string } {
  if (!m.online) return { key: 'machine.offline', cls: '' };
  if (!m.enabled) return { key: m.running > 0 ? 'machine.draining' : 'machine.disabled', cls: 'danger' };
  return m.running > 0 ? { key: 'machine.busy', cls: 'accent' } : { key: 'machine.online', cls: 'ok' };
}

export function MachineManagePage() {
  const [list, reload] = useLoad(() => api.post<Machine[]>('/machineInfo/list', {}, { silent: true }), []);
  const [now, setNow] = useState(Date.now());
  const [confirm, setConfirm] = useState<Machine | null>(null);
  // Live: the list every 2 s (heartbeats come every 10 s by default).
  useEffect(() => {
    const t = setInterval(() => {
      setNow(Date.now());
      void reload();
    }, 2000);
    return () => clearInterval(t);
  }, [reload]);
  const enable = (m: Machine) =>
    act(() => api.post('/machineInfo/update', { id: m.id, enabled: true }), reload);
  const remove = (m: Machine) => act(() => api.post('/machineInfo/delete', { id: m.id }), reload);
  return (
    <AdminPage
      path="machineManage"
      tools={<span className="admin-muted admin-live">{ta('machine.live')}</span>}
    >
      {(canWrite) => (
        <>
          <Table
            rows={list ?? []}
            testId="machine-table"
            columns={[
              {
                key: 'n',
                title: ta('machine.name'),
                render: (m) => (
                  <span className="admin-machine-name" data-machine={m.name}>
                    <strong>{m.name}</strong>
                    <span className="admin-muted">
                      {m.host} · {m.kind}
                      {m.meta.pid ? ` · pid ${m.meta.pid}` : ''}
                      {m.meta.queue ? ` · ${m.meta.queue}` : ''}
                    </span>
                  </span>
                ),
              },
              {
                key: 's',
                title: ta('machine.state'),
                render: (m) => {
                  const s = stateOf(m);
                  return (
                    <span className={`admin-pill ${s.cls}`} data-state={s.key.split('.')[1]}>
                      {ta(s.key)}
                    </span>
                  );
                },
              },
              {
                key: 'h',
                title: ta('machine.heartbeat'),
                render: (m) =>
                  m.lastHeartbeatAt ? (
                    <span data-heartbeat={m.lastHeartbeatAt} title={fmtTime(m.lastHeartbeatAt)}>
                      {ta('machine.secondsAgo', {
                        n: Math.max(0, Math.round((now - m.lastHeartbeatAt) / 1000)),
                      })}
                    </span>
                  ) : (
                    '—'
                  ),
              },
              {
                key: 'j',
                title: ta('machine.jobs'),
                render: (m) => (
                  <span
                    title={
                      m.meta.videos?.length
                        ? ta('machine.videos', { ids: m.meta.videos.join(', ') })
                        : undefined
                    }
                  >
                    {m.running} / {m.capacity}
                  </span>
                ),
                align: 'center',
              },
              {
                key: 'd',
                title: ta('machine.done'),
                render: (m) => (
                  <span data-jobs-done={m.meta.jobsDone ?? 0}>
                    {m.meta.jobsDone ?? 0} / {m.meta.jobsFailed ?? 0}
                  </span>
                ),
                align: 'center',
              },
              {
                key: 'c',
                title: ta('machine.cpu'),
                render: (m) =>
                  m.meta.cpu !== undefined ? (
                    <span
                      className="admin-cpu"
                      title={`load ${m.meta.load1 ?? '—'} · ${m.meta.cores ?? '?'} cores · ${m.meta.rssMb ?? '?'} MB`}
                    >
                      <span className="admin-cpu-bar">
                        <span
                          style={{
                            width: `${Math.min(100, (m.meta.cpu ?? 0) / Math.max(1, m.meta.cores ?? 1))}%`,
                          }}
                        />
                      </span>
                      {m.meta.cpu.toFixed(0)}%
                    </span>
                  ) : (
                    '—'
                  ),
              },
              { key: 'm', title: ta('machine.model'), render: (m) => m.meta.model ?? '—' },
              { key: 'v', title: ta('machine.version'), render: (m) => m.version || '—' },
              { key: 't', title: ta('machine.started'), render: (m) => fmtTime(m.startedAt) },
              ...actionsColumn(canWrite, (m: Machine) => (
                <span className="admin-actions">
                  {m.enabled ? (
                    <Btn
                      label={ta('machine.disable')}
                      action="disable"
                      danger
                      onClick={() => setConfirm(m)}
                    />
                  ) : (
                    <Btn label={ta('machine.enable')} action="enable" onClick={() => enable(m)} />
                  )}
                  {!m.online && <Btn label={ta('admin.delete')} action="delete" onClick={() => remove(m)} />}
                </span>
              )),
            ]}
          />
          <ConfirmAct
            item={confirm}
            title={ta('machine.disable')}
            text={(m) => ta('machine.disableConfirm', { name: m.name })}
            close={() => setConfirm(null)}
            run={(m) => api.post('/machineInfo/update', { id: m.id, enabled: false })}
            after={reload}
          />
        </>
      )}
    </AdminPage>
  );
}
