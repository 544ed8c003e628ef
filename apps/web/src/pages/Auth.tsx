/** /login (with the password reset view) and /register. */
import { type FormEvent, type InputHTMLAttributes, type ReactNode, useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { LegalLinks } from '../components/Footer.tsx';
import { useMaintain } from '../components/Layout.tsx';
import { BrandLink, LangSwitch } from '../components/TopBar.tsx';
import { useBusy } from '../lib/busy.ts';
import {
  CODE_TYPE,
  login,
  register,
  resetPassword,
  sendCode,
  thirdPartyAuthorizeUrl,
  thirdPartyButtons,
  thirdPartyLogin,
} from '../lib/endpoints.ts';
import { t } from '../lib/i18n.ts';
import { toast } from '../lib/messages.ts';
import { useSession } from '../lib/session.tsx';

export const CODE_RESEND_SECONDS = 60;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 32;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function checkEmail(email: string): string | null {
  if (!email.trim()) return 'auth.emailRequired';
  return EMAIL_RE.test(email.trim()) ? null : 'auth.emailInvalid';
}

export function checkPassword(pw: string): string | null {
  if (!pw) return 'auth.passwordRequired';
  return pw.length < PASSWORD_MIN || pw.length > PASSWORD_MAX ? 'auth.passwordLength' : null;
}

export const checkCode = (code: string): string | null => (/^\d{4}$/.test(code) ? null : 'auth.codeFormat');
export const checkMatch = (a: string, b: string): string | null => (a === b ? null : 'auth.passwordMismatch');

/** The email-code form's checks (register and reset share them). */
export function checkCodeForm(f: { email: string; code: string; password: string; password2: string }) {
  return {
    email: checkEmail(f.email),
    code: checkCode(f.code),
    password: checkPassword(f.password),
    password2: checkMatch(f.password, f.password2),
  };
}

/** The 4-digit email code with its send button, then the new password twice (register and reset). */
function CodeAndPasswords(props: {
  email: string;
  codeType: number;
  company?: boolean;
  code: string;
  setCode: (v: string) => void;
  password: string;
  setPassword: (v: string) => void;
  password2: string;
  setPassword2: (v: string) => void;
  errors: Record<string, string | null>;
  passwordLabel: string;
}) {
  const { errors } = props;
  return (
    <>
      <Field label={t('auth.code')} error={errors.code}>
        <div className="input-row">
          <input
            name="code"
            inputMode="numeric"
            maxLength={4}
            value={props.code}
            placeholder={t('auth.codePlaceholder')}
            onChange={(e) => props.setCode(e.target.value.trim())}
          />
          <CodeButton email={props.email} type={props.codeType} company={props.company} />
        </div>
      </Field>
      {(
        [
          ['password', props.passwordLabel, props.password, props.setPassword],
          ['password2', t('auth.password2'), props.password2, props.setPassword2],
        ] as const
      ).map(([name, label, value, set]) => (
        <TextField
          key={name}
          {...{ name, label, value, set }}
          error={errors[name]}
          type="password"
          autoComplete="new-password"
        />
      ))}
    </>
  );
}

function AuthFrame({ children }: { children: ReactNode }) {
  const maintain = useMaintain();
  return (
    <div className="auth-page">
      <div className="auth-art">
        <BrandLink />
        <div className="auth-art-figure" aria-hidden="true">
          <StickFigure />
        </div>
        <h2>{t('home.heroTitle')}</h2>
        <p>{t('home.heroText')}</p>
      </div>
      <div className="auth-panel">
        <div className="auth-top">
          <LangSwitch />
        </div>
        <div className="auth-card">{children}</div>
        <div className="auth-foot">
          <LegalLinks />
          {maintain?.plateNumberBtn && maintain.plateNumber && <span>{maintain.plateNumber}</span>}
        </div>
      </div>
    </div>
  );
}

export function StickFigure() {
  return (
    <svg viewBox="0 0 200 240" width="220" height="264" role="img">
      <title>{t('app.name')}</title>
      <defs>
        <linearGradient id="fig" x1="0" x2="1" y1="0" y2="1">
          <stop offset="0" stopColor="#8f84ff" />
          <stop offset="1" stopColor="#36d1c4" />
        </linearGradient>
      </defs>
      <g stroke="url(#fig)" strokeWidth="9" strokeLinecap="round" fill="none">
        <path d="M100 62 L100 130" />
        <path d="M100 78 L62 104 L40 84" />
        <path d="M100 78 L140 96 L168 70" />
        <path d="M100 130 L74 176 L80 222" />
        <path d="M100 130 L132 170 L156 206" />
      </g>
      <circle cx="100" cy="38" r="18" fill="url(#fig)" />
      <g fill="#fff">
        {[
          [100, 78],
          [62, 104],
          [40, 84],
          [140, 96],
          [168, 70],
          [100, 130],
          [74, 176],
          [80, 222],
          [132, 170],
          [156, 206],
        ].map(([x, y]) => (
          <circle key={`${x}-${y}`} cx={x} cy={y} r="5" />
        ))}
      </g>
    </svg>
  );
}

/** A labelled text input of a form: `set` takes what the user types. */
function TextField(
  props: {
    label: string;
    error?: string | null;
    name: string;
    value: string;
    set: (v: string) => void;
  } & Pick<InputHTMLAttributes<HTMLInputElement>, 'type' | 'autoComplete' | 'placeholder'>,
) {
  const { label, error, set, ...input } = props;
  return (
    <Field label={label} error={error}>
      <input {...input} onChange={(e) => set(e.target.value)} />
    </Field>
  );
}

function Field({ label, error, children }: { label: string; error?: string | null; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is passed in as children
    <label className={`field${error ? ' has-error' : ''}`}>
      <span className="field-label">{label}</span>
      {children}
      {error && (
        <span className="field-error" role="alert">
          {t(error)}
        </span>
      )}
    </label>
  );
}

/** The send-code button with its countdown; repeated clicks while counting warn 请勿重复发送!. */
function CodeButton({ email, type, company = false }: { email: string; type: number; company?: boolean }) {
  const [left, setLeft] = useState(0);
  const [busy, whileBusy] = useBusy();
  useEffect(() => {
    if (left <= 0) return;
    const id = setTimeout(() => setLeft(left - 1), 1000);
    return () => clearTimeout(id);
  }, [left]);
  return (
    <button
      type="button"
      className="btn code-btn"
      disabled={busy}
      onClick={async () => {
        if (left > 0) {
          toast.warning(t('auth.noRepeat'));
          return;
        }
        const bad = checkEmail(email);
        if (bad) {
          toast.error(t(bad));
          return;
        }
        await whileBusy(async () => {
          await sendCode(email, type, company);
          toast.success(t('auth.codeSent'));
          setLeft(CODE_RESEND_SECONDS);
        });
      }}
    >
      {left > 0 ? t('auth.resendIn', { s: left }) : t('auth.sendCode')}
    </button>
  );
}

export function LoginPage() {
  const [params, setParams] = useSearchParams();
  const reset = params.get('mode') === 'reset';
  return <AuthFrame>{reset ? <ResetForm onDone={() => setParams({})} /> : <LoginForm />}</AuthFrame>;
}

function LoginForm() {
  const { signIn } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [company, setCompany] = useState(false);
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [busy, whileBusy] = useBusy();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs = {
      email: email.trim() ? null : 'auth.emailRequired',
      password: password ? null : 'auth.passwordRequired',
    };
    setErrors(errs);
    if (errs.email || errs.password) return;
    await whileBusy(async () => {
      const token = await login(email, password, company);
      if (!token) throw new Error('no token');
      const me = await signIn(token);
      toast.success(t('auth.loginOk'));
      const from = (location.state as { from?: string } | null)?.from;
      const home = me?.company ? '/index/userDetailCompany' : '/index/myPro';
      navigate(from && from !== '/login' ? from : home, { replace: true });
    });
  };
  return (
    <form className="auth-form" onSubmit={submit} noValidate>
      <h1>{t('auth.loginTitle')}</h1>
      <p className="muted">{t('auth.loginSub')}</p>
      <TextField
        name="email"
        label={t('auth.email')}
        error={errors.email}
        value={email}
        set={setEmail}
        type="email"
        autoComplete="username"
        placeholder={t('auth.emailPlaceholder')}
      />
      <TextField
        name="password"
        label={t('auth.password')}
        error={errors.password}
        value={password}
        set={setPassword}
        type="password"
        autoComplete="current-password"
        placeholder={t('auth.passwordPlaceholder')}
      />
      <div className="auth-row">
        <CompanyToggle company={company} setCompany={setCompany} />
        <Link to="/login?mode=reset">{t('auth.forgot')}</Link>
      </div>
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy ? t('common.wait') : t('auth.login')}
      </button>
      <ThirdPartyButtons />
      <p className="auth-switch">
        {t('auth.noAccount')} <Link to="/register">{t('auth.register')}</Link>
      </p>
    </form>
  );
}

/** Company (enterprise) accounts log in and register through their own calls (spec §7). */
function CompanyToggle({ company, setCompany }: { company: boolean; setCompany: (v: boolean) => void }) {
  return (
    <label className="checkbox">
      <input
        name="company"
        type="checkbox"
        checked={company}
        onChange={(e) => setCompany(e.target.checked)}
      />
      {t('auth.companyAccount')}
    </label>
  );
}

const THIRD_PARTY_KEY = 'mocap_3rd_provider';

/**
 * Third-party login: one button per provider the server is configured with (none by default). The button goes to
 * the server, which redirects to the provider with state + PKCE; the provider sends the browser back here with
 * `code` and `state`, which are exchanged for a session.
 */
function ThirdPartyButtons() {
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [buttons, setButtons] = useState<{ name: string; label: string }[]>([]);
  const code = params.get('code');
  const state = params.get('state');
  useEffect(() => {
    thirdPartyButtons().then(setButtons, () => setButtons([]));
  }, []);
  useEffect(() => {
    const provider = sessionStorage.getItem(THIRD_PARTY_KEY);
    if (!code || !state || !provider) return;
    sessionStorage.removeItem(THIRD_PARTY_KEY);
    setParams({}, { replace: true });
    thirdPartyLogin(provider, code, state)
      .then(async (token) => {
        await signIn(token);
        toast.success(t('auth.loginOk'));
        navigate('/index/myPro', { replace: true });
      })
      .catch(() => {
        /* the client showed the server's message */
      });
  }, [code, state, setParams, signIn, navigate]);
  if (!buttons.length) return null;
  return (
    <div className="auth-third-party">
      <p className="muted">{t('auth.orThirdParty')}</p>
      {buttons.map((b) => (
        <a
          key={b.name}
          className="btn btn-block"
          href={thirdPartyAuthorizeUrl(b.name)}
          onClick={() => sessionStorage.setItem(THIRD_PARTY_KEY, b.name)}
        >
          {t('auth.continueWith', { name: b.label })}
        </a>
      ))}
    </div>
  );
}

function ResetForm({ onDone }: { onDone: () => void }) {
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [password2, setPassword2] = useState('');
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [busy, whileBusy] = useBusy();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs = checkCodeForm({ email, code, password, password2 });
    setErrors(errs);
    if (Object.values(errs).some(Boolean)) return;
    await whileBusy(async () => {
      await resetPassword(email, code, password);
      toast.success(t('auth.resetOk'));
      onDone();
    });
  };
  return (
    <form className="auth-form" onSubmit={submit} noValidate>
      <h1>{t('auth.resetTitle')}</h1>
      <p className="muted">{t('auth.resetSub')}</p>
      <TextField
        name="email"
        label={t('auth.email')}
        error={errors.email}
        value={email}
        set={setEmail}
        type="email"
      />
      <CodeAndPasswords
        {...{ email, code, setCode, password, setPassword, password2, setPassword2, errors }}
        codeType={CODE_TYPE.reset}
        passwordLabel={t('auth.newPassword')}
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {t('auth.resetSubmit')}
      </button>
      <p className="auth-switch">
        <Link to="/login">{t('auth.backToLogin')}</Link>
      </p>
    </form>
  );
}

export function RegisterPage() {
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [password2, setPassword2] = useState('');
  const [invite, setInvite] = useState(params.get('invite') ?? params.get('code') ?? '');
  const [agree, setAgree] = useState(false);
  const [company, setCompany] = useState(params.get('company') === '1');
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [busy, whileBusy] = useBusy();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs = {
      ...checkCodeForm({ email, code, password, password2 }),
      agree: agree ? null : 'auth.agreeRequired',
    };
    setErrors(errs);
    if (errs.agree) toast.warning(t('auth.agreeRequired'));
    if (Object.values(errs).some(Boolean)) return;
    await whileBusy(async () => {
      let token = await register(email, password, code, invite.trim() || undefined, company);
      if (!token) token = await login(email, password, company);
      await signIn(token);
      toast.success(t('auth.registerOk'));
      navigate(company ? '/index/userDetailCompany' : '/index/myPro', { replace: true });
    });
  };
  return (
    <AuthFrame>
      <form className="auth-form" onSubmit={submit} noValidate>
        <h1>{t('auth.registerTitle')}</h1>
        <p className="muted">{t('auth.registerSub')}</p>
        <TextField
          name="email"
          label={t('auth.email')}
          error={errors.email}
          value={email}
          set={setEmail}
          type="email"
          autoComplete="email"
        />
        <CodeAndPasswords
          {...{ email, code, setCode, password, setPassword, password2, setPassword2, errors }}
          codeType={CODE_TYPE.register}
          company={company}
          passwordLabel={t('auth.password')}
        />
        <CompanyToggle company={company} setCompany={setCompany} />
        <TextField
          name="invite"
          label={t('auth.invite')}
          value={invite}
          set={setInvite}
          placeholder={t('auth.invitePlaceholder')}
        />
        <div className={`agree${errors.agree ? ' has-error' : ''}`}>
          <label className="checkbox">
            <input
              name="agree"
              type="checkbox"
              checked={agree}
              onChange={(e) => setAgree(e.target.checked)}
            />
            {t('auth.agree')}
          </label>
          <LegalLinks />
          {errors.agree && (
            <span className="field-error" role="alert">
              {t(errors.agree)}
            </span>
          )}
        </div>
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? t('common.wait') : t('auth.registerSubmit')}
        </button>
        <p className="auth-switch">
          {t('auth.haveAccount')} <Link to="/login">{t('auth.login')}</Link>
        </p>
      </form>
    </AuthFrame>
  );
}
