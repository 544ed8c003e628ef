/** /login (with the password reset view) and /register. */
import { type FormEvent, type InputHTMLAttributes, type ReactNode, useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { FieldError } from '../components/FieldError.tsx';
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

/** The state of the email-code forms (register and reset): email, code and the new password twice. */
function useCodeForm() {
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [password2, setPassword2] = useState('');
  return { email, setEmail, code, setCode, password, setPassword, password2, setPassword2 };
}

/** The 4-digit email code with its send button, then the new password twice (register and reset). */
function CodeAndPasswords(
  props: ReturnType<typeof useCodeForm> & {
    codeType: number;
    company?: boolean;
    errors: Record<string, string | null>;
    passwordLabel: string;
  },
) {
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

/** Each auth form's submit label, and whether it says "please wait" while busy (the reset button does not). */
const AUTH_SUBMIT = {
  login: ['auth.login', true],
  register: ['auth.registerSubmit', true],
  reset: ['auth.resetSubmit', false],
} as const;

/**
 * The frame of the three auth forms: title and subline (`auth.<kind>Title`, `auth.<kind>Sub`), the fields, the
 * submit button, then what comes under it (`after`) and the switch line to the other form.
 */
function AuthForm(props: {
  kind: keyof typeof AUTH_SUBMIT;
  onSubmit: () => Promise<void>;
  busy: boolean;
  after?: ReactNode;
  switchLine: ReactNode;
  children: ReactNode;
}) {
  const [label, wait] = AUTH_SUBMIT[props.kind];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void props.onSubmit();
  };
  return (
    <form className="auth-form" onSubmit={submit} noValidate>
      <h1>{t(`auth.${props.kind}Title`)}</h1>
      <p className="muted">{t(`auth.${props.kind}Sub`)}</p>
      {props.children}
      <button type="submit" className="btn btn-primary btn-block" disabled={props.busy}>
        {props.busy && wait ? t('common.wait') : t(label)}
      </button>
      {props.after}
      <p className="auth-switch">{props.switchLine}</p>
    </form>
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

/** The email field every auth form starts with. */
function EmailField(
  props: { value: string; set: (v: string) => void; error?: string | null } & Pick<
    InputHTMLAttributes<HTMLInputElement>,
    'autoComplete' | 'placeholder'
  >,
) {
  return <TextField name="email" label={t('auth.email')} type="email" {...props} />;
}

function Field({ label, error, children }: { label: string; error?: string | null; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is passed in as children
    <label className={`field${error ? ' has-error' : ''}`}>
      <span className="field-label">{label}</span>
      {children}
      <FieldError>{error && t(error)}</FieldError>
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
  const submit = async () => {
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
    <AuthForm
      kind="login"
      onSubmit={submit}
      busy={busy}
      after={<ThirdPartyButtons />}
      switchLine={
        <>
          {t('auth.noAccount')} <Link to="/register">{t('auth.register')}</Link>
        </>
      }
    >
      <EmailField
        error={errors.email}
        value={email}
        set={setEmail}
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
    </AuthForm>
  );
}

/** Company (enterprise) accounts log in and register through their own calls (spec §7). */
function CompanyToggle({ company, setCompany }: { company: boolean; setCompany: (v: boolean) => void }) {
  return (
    <Checkbox name="company" checked={company} set={setCompany}>
      {t('auth.companyAccount')}
    </Checkbox>
  );
}

/** A labelled checkbox of a form: `set` takes its new state. */
function Checkbox(props: { name: string; checked: boolean; set: (v: boolean) => void; children: ReactNode }) {
  return (
    <label className="checkbox">
      <input
        name={props.name}
        type="checkbox"
        checked={props.checked}
        onChange={(e) => props.set(e.target.checked)}
      />
      {props.children}
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
  const form = useCodeForm();
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [busy, whileBusy] = useBusy();
  const submit = async () => {
    const errs = checkCodeForm(form);
    setErrors(errs);
    if (Object.values(errs).some(Boolean)) return;
    await whileBusy(async () => {
      await resetPassword(form.email, form.code, form.password);
      toast.success(t('auth.resetOk'));
      onDone();
    });
  };
  return (
    <AuthForm
      kind="reset"
      onSubmit={submit}
      busy={busy}
      switchLine={<Link to="/login">{t('auth.backToLogin')}</Link>}
    >
      <EmailField error={errors.email} value={form.email} set={form.setEmail} />
      <CodeAndPasswords
        {...form}
        errors={errors}
        codeType={CODE_TYPE.reset}
        passwordLabel={t('auth.newPassword')}
      />
    </AuthForm>
  );
}

export function RegisterPage() {
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const form = useCodeForm();
  const { email, password } = form;
  const [invite, setInvite] = useState(params.get('invite') ?? params.get('code') ?? '');
  const [agree, setAgree] = useState(false);
  const [company, setCompany] = useState(params.get('company') === '1');
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [busy, whileBusy] = useBusy();
  const submit = async () => {
    const errs = {
      ...checkCodeForm(form),
      agree: agree ? null : 'auth.agreeRequired',
    };
    setErrors(errs);
    if (errs.agree) toast.warning(t('auth.agreeRequired'));
    if (Object.values(errs).some(Boolean)) return;
    await whileBusy(async () => {
      let token = await register(email, password, form.code, invite.trim() || undefined, company);
      if (!token) token = await login(email, password, company);
      await signIn(token);
      toast.success(t('auth.registerOk'));
      navigate(company ? '/index/userDetailCompany' : '/index/myPro', { replace: true });
    });
  };
  return (
    <AuthFrame>
      <AuthForm
        kind="register"
        onSubmit={submit}
        busy={busy}
        switchLine={
          <>
            {t('auth.haveAccount')} <Link to="/login">{t('auth.login')}</Link>
          </>
        }
      >
        <EmailField error={errors.email} value={email} set={form.setEmail} autoComplete="email" />
        <CodeAndPasswords
          {...form}
          errors={errors}
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
          <Checkbox name="agree" checked={agree} set={setAgree}>
            {t('auth.agree')}
          </Checkbox>
          <LegalLinks />
          <FieldError>{errors.agree && t(errors.agree)}</FieldError>
        </div>
      </AuthForm>
    </AuthFrame>
  );
}
