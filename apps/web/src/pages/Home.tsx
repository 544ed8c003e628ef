/** /home: the product's front page, open without an account. */
import { Link } from 'react-router-dom';
import { Footer } from '../components/Footer.tsx';
import { Icon } from '../components/Icon.tsx';
import { useMaintain } from '../components/Layout.tsx';
import { BrandLink, LangSwitch } from '../components/TopBar.tsx';
import { BONE_TYPES } from '../lib/bonetypes.ts';
import { getToken } from '../lib/cookies.ts';
import { t } from '../lib/i18n.ts';
import { StickFigure } from './Auth.tsx';

const STEPS = [
  { icon: 'upload', key: 'home.step1' },
  { icon: 'bones', key: 'home.step2' },
  { icon: 'download', key: 'home.step3' },
];

export function HomePage() {
  const maintain = useMaintain();
  const loggedIn = !!getToken();
  return (
    <div className="home">
      <header className="home-nav">
        <BrandLink />
        <div className="home-nav-right">
          <LangSwitch />
          {loggedIn ? (
            <Link className="btn btn-primary" to="/index/myPro">
              {t('home.open')}
            </Link>
          ) : (
            <>
              <Link className="btn" to="/login">
                {t('auth.login')}
              </Link>
              <Link className="btn btn-primary" to="/register">
                {t('auth.register')}
              </Link>
            </>
          )}
        </div>
      </header>
      <section className="hero">
        <div className="hero-text">
          <h1>{t('home.heroTitle')}</h1>
          <p>{t('home.heroText')}</p>
          <div className="hero-cta">
            <Link className="btn btn-primary btn-lg" to={loggedIn ? '/index/upload' : '/register'}>
              {t('home.cta')}
            </Link>
            <span className="muted">{t('home.freeCoins')}</span>
          </div>
        </div>
        <div className="hero-art" aria-hidden="true">
          <div className="hero-video-frame">
            <StickFigure />
          </div>
        </div>
      </section>
      <section className="steps">
        {STEPS.map((s, i) => (
          <div className="step" key={s.key}>
            <div className="step-icon">
              <Icon name={s.icon} size={26} />
            </div>
            <div className="step-num">{i + 1}</div>
            <h3>{t(`${s.key}.title`)}</h3>
            <p>{t(`${s.key}.text`)}</p>
          </div>
        ))}
      </section>
      <section className="formats">
        <h2>{t('home.formatsTitle')}</h2>
        <div className="format-chips">
          {BONE_TYPES.map((b) => (
            <span className="chip" key={b}>
              {b}
            </span>
          ))}
        </div>
        <p className="muted">{t('home.tips')}</p>
      </section>
      <Footer maintain={maintain} />
    </div>
  );
}

export function NotFoundPage() {
  return (
    <div className="not-found">
      <div className="nf-code">404</div>
      <p>{t('notFound.text')}</p>
      <Link className="btn btn-primary" to="/index/myPro">
        {t('notFound.back')}
      </Link>
    </div>
  );
}
