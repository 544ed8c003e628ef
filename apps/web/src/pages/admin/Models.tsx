/** manageModel: capture models (enabled, the model of each plan's new uploads, usage) and bundled characters. */
import type { ModelList, ModelSettings } from '@mocap/contracts';
import { useEffect, useState } from 'react';
import { type AdminKey, ta } from '../../i18n/admin.ts';
import { api } from '../../lib/api.ts';
import { AdminPage, Switch, Table, useLoad } from './Console.tsx';
import { act, Btn } from './kit.tsx';

type Settings = ModelSettings;
type Model = keyof Settings['enabled'];
type Plan = keyof Settings['byPlan'];

const MODELS: Model[] = ['lite', 'full', 'heavy'];
const PLANS: Plan[] = ['free', 'monthly', 'yearly'];

export function ManageModelPage() {
  const [data, reload] = useLoad(() => api.post<ModelList>('/model/list'), []);
  const [f, setF] = useState<Settings | null>(null);
  useEffect(() => setF(data ? { enabled: { ...data.enabled }, byPlan: { ...data.byPlan } } : null), [data]);
  const save = () => f && act(() => api.post('/model/save', f), reload, 'admin.saved');
  const usage = (m: Model) => data?.usage.find((u) => u.model === m);
  return (
    <AdminPage path="manageModel">
      {(canWrite) =>
        !f || !data ? (
          <div className="page-loading">
            <div className="spinner" />
          </div>
        ) : (
          <>
            <section className="admin-card">
              <div className="admin-card-head">
                <h2>{ta('model.capture')}</h2>
                {canWrite && <Btn primary label={ta('admin.save')} testId="model-save" onClick={save} />}
              </div>
              <p className="admin-muted">{ta('model.hint')}</p>
              <Table
                rowKey={(m) => m}
                rows={MODELS}
                testId="model-table"
                columns={[
                  {
                    key: 'm',
                    title: ta('machine.model'),
                    render: (m) => (
                      <span className="admin-machine-name">
                        <strong>{m}</strong>
                        <span className="admin-muted">{ta(`model.${m}` as AdminKey)}</span>
                      </span>
                    ),
                  },
                  {
                    key: 'e',
                    title: ta('model.enabled'),
                    render: (m) => (
                      <Switch
                        checked={f.enabled[m]}
                        disabled={!canWrite}
                        testId={`model-enabled-${m}`}
                        onChange={(v) => setF({ ...f, enabled: { ...f.enabled, [m]: v } })}
                      />
                    ),
                  },
                  {
                    key: 'p',
                    title: ta('model.plans'),
                    render: (m) =>
                      PLANS.filter((p) => f.byPlan[p] === m)
                        .map((p) => ta(`level.${p}` as AdminKey))
                        .join(', ') || '—',
                  },
                  {
                    key: 'u',
                    title: ta('model.videos'),
                    render: (m) => usage(m)?.videos ?? 0,
                    align: 'right',
                  },
                  {
                    key: 'r',
                    title: ta('model.recent'),
                    render: (m) => usage(m)?.last30Days ?? 0,
                    align: 'right',
                  },
                ]}
              />
              <div className="admin-plan-models">
                {PLANS.map((p) => (
                  <label key={p} className="admin-field">
                    <span className="admin-field-label">
                      {ta('model.planUses', { plan: ta(`level.${p}` as AdminKey) })}
                    </span>
                    <select
                      className="input"
                      value={f.byPlan[p]}
                      disabled={!canWrite}
                      data-plan={p}
                      onChange={(e) => setF({ ...f, byPlan: { ...f.byPlan, [p]: e.target.value as Model } })}
                    >
                      {MODELS.map((m) => (
                        <option key={m} value={m} disabled={!f.enabled[m]}>
                          {m}
                        </option>
                      ))}
                    </select>
                  </label>
                ))}
              </div>
            </section>
            <section className="admin-card">
              <h2>{ta('model.characters')}</h2>
              <div className="admin-flags">
                {data.characters.map((c) => (
                  <span
                    key={c.name}
                    className={`admin-pill ${c.free ? 'ok' : ''}`}
                    title={c.free ? ta('model.free') : ''}
                  >
                    {c.name} · {c.format}
                  </span>
                ))}
              </div>
              <p className="admin-muted">{ta('model.charactersHint')}</p>
            </section>
          </>
        )
      }
    </AdminPage>
  );
}
