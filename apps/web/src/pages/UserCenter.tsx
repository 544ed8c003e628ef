/** /userCenter: tab 1 user settings (profile, password, plan and coins), 2 pay plan, 3 invite plan, 4 cash-back. */
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Icon } from '../components/Icon.tsx';
import { Tabs } from '../components/Tabs.tsx';
import { BackHead, PlanBadge, signOut } from '../components/TopBar.tsx';
import { useBusy } from '../lib/busy.ts';
import { isPhone } from '../lib/device.ts';
import { changePassword, updateCenter } from '../lib/endpoints.ts';
import { t } from '../lib/i18n.ts';
import { toast } from '../lib/messages.ts';
import { PLAN_LIMITS } from '../lib/plans.ts';
import { useSession } from '../lib/session.tsx';
import { checkMatch, checkPassword } from './Auth.tsx';
import { formatDate } from './MyPro.tsx';
import { CashbackTab, InviteTab, PayPlanTab } from './UserCenterTabs.tsx';

export function UserCenterPage() {
  const { user, refresh, loading } = useSession();
  const _navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') ?? '1';
  const [form, setForm] = useState({ username: '', phone: '', contact: '', company: '', address: '' });
  const [pw, setPw] = useState({ old: '', next: '', again: '' });
  const [pwError, setPwError] = useState<string | null>(null);
  const [busy, whileBusy] = useBusy();

  useEffect(() => {
    if (user)
      setForm({
        username: user.username,
        phone: user.phone,
        contact: user.contact,
        company: user.companyName,
        address: user.address,
      });
  }, [user]);

  if (loading || !user)
    return (
      <div className="page-loading">
        <div className="spinner" />
      </div>
    );

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!form.username.trim()) {
      toast.error(t('center.usernameRequired'));
      return;
    }
    await whileBusy(async () => {
      await updateCenter({ ...form, username: form.username.trim() });
      await refresh();
      toast.success(t('common.saved'));
    });
  };

  const savePassword = async (e: FormEvent) => {
    e.preventDefault();
    const err =
      (pw.old ? null : 'auth.passwordRequired') ?? checkPassword(pw.next) ?? checkMatch(pw.next, pw.again);
    setPwError(err);
    if (err) return;
    await whileBusy(async () => {
      await changePassword(pw.old, pw.next);
      setPw({ old: '', next: '', again: '' });
      toast.success(t('center.passwordChanged'));
    });
  };

  const limits = PLAN_LIMITS[user.plan];
  const field = (key: keyof typeof form, label: string, type = 'text') => (
    <label className="field">
      <span className="field-label">{t(label)}</span>
      <input
        name={key}
        type={type}
        value={form[key]}
        onChange={(e) => setForm({ ...form, [key]: e.target.value })}
      />
    </label>
  );
  return (
    <div className={`center${isPhone() ? ' center-m' : ''}`}>
      <BackHead title={t('title.userCenter')} />
      <Tabs
        keys={['1', '2', '3', '4']}
        current={tab}
        label={(k) => t(`center.tab${k}`)}
        pick={(k) => setParams({ tab: k }, { replace: true })}
      />
      {tab === '2' && <PayPlanTab />}
      {tab === '3' && <InviteTab />}
      {tab === '4' && <CashbackTab />}
      <div className="center-grid" hidden={tab !== '1'}>
        <section className="panel account-card">
          <div className="avatar big">{(user.username || user.email).slice(0, 1).toUpperCase()}</div>
          <div className="account-email">{user.email}</div>
          <div className="account-plan">
            {user.company ? (
              <span className="plan-badge plan-company">{t('plan.company')}</span>
            ) : (
              <PlanBadge plan={user.plan} />
            )}
            {user.vexpiredAt && user.plan !== 'free' && (
              <span className="muted">{t('center.expires', { d: formatDate(user.vexpiredAt) })}</span>
            )}
          </div>
          <dl className="account-stats">
            <div>
              <dt>{user.company ? t('coins.cv') : t('coins.balance')}</dt>
              <dd data-testid="center-coins">{user.company ? user.cvCoin : user.surplus}</dd>
            </div>
            <div>
              <dt>{t('center.limitDuration')}</dt>
              <dd>{t('upload.seconds', { s: limits.durationSec })}</dd>
            </div>
            <div>
              <dt>{t('center.limitSize')}</dt>
              <dd>{limits.uploadCheckMb} MB</dd>
            </div>
            <div>
              <dt>{t('center.limitQueue')}</dt>
              <dd>{limits.queue}</dd>
            </div>
          </dl>
          {user.plan === 'free' && <p className="muted small">{t('center.freeNote')}</p>}
          {user.inviteCode && (
            <p className="muted small">
              {t('center.inviteCode')}: <code>{user.inviteCode}</code>
            </p>
          )}
          {user.inviteCode && <p className="muted small invite-rule">{t('center.inviteRule')}</p>}
          <button type="button" className="btn btn-block" onClick={() => void signOut()}>
            <Icon name="logout" /> {t('userMenu.logout')}
          </button>
        </section>
        <form className="panel" onSubmit={save}>
          <h2 className="panel-title">{t('center.profile')}</h2>
          <label className="field">
            <span className="field-label">{t('auth.email')}</span>
            <input value={user.email} disabled />
          </label>
          {field('username', 'center.username')}
          {field('phone', 'center.phone', 'tel')}
          {field('contact', 'center.contact')}
          {field('company', 'center.company')}
          {field('address', 'center.address')}
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {t('common.save')}
          </button>
        </form>
        <form className="panel" onSubmit={savePassword}>
          <h2 className="panel-title">{t('center.password')}</h2>
          {(
            [
              ['old', 'center.oldPassword', 'current-password'],
              ['next', 'auth.newPassword', 'new-password'],
              ['again', 'auth.password2', 'new-password'],
            ] as const
          ).map(([key, label, autoComplete]) => (
            <label className="field" key={key}>
              <span className="field-label">{t(label)}</span>
              <input
                type="password"
                autoComplete={autoComplete}
                value={pw[key]}
                onChange={(e) => setPw({ ...pw, [key]: e.target.value })}
              />
            </label>
          ))}
          {pwError && (
            <div className="form-error" role="alert">
              {t(pwError)}
            </div>
          )}
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {t('center.changePassword')}
          </button>
        </form>
      </div>
    </div>
  );
}
