/** Routes (spec §2) under the /capture base, history mode; the guard wraps them all. */
import { useEffect, useLayoutEffect, useState } from 'react';
import { createBrowserRouter, Navigate, Outlet, RouterProvider } from 'react-router-dom';
import { Guard } from './components/Guard.tsx';
import { DeviceRedirect, Layout } from './components/Layout.tsx';
import { Messages } from './components/Messages.tsx';
import { isPhone } from './lib/device.ts';
import { blockBrowserZoom, designScale } from './lib/scale.ts';
import { SessionProvider } from './lib/session.tsx';
import { usePageViews } from './lib/shell.ts';
import { AnimationPage } from './pages/Animation.tsx';
import { MarkedPage, PayViewPage, PricingPage } from './pages/AsPay.tsx';
import { LoginPage, RegisterPage } from './pages/Auth.tsx';
import { adminRoutes } from './pages/admin/routes.tsx';
import { ConsumePage, RechargePage, TutorialPage, UserDetailCompanyPage } from './pages/Company.tsx';
import { HomePage, NotFoundPage } from './pages/Home.tsx';
import { ExperimentPage } from './pages/lab/Experiment.tsx';
import { MmdPage } from './pages/lab/Mmd.tsx';
import { WisdomPage } from './pages/lab/Wisdom.tsx';
import { MusicPage } from './pages/Music.tsx';
import { MyProPage } from './pages/MyPro.tsx';
import { RefresherRoute } from './pages/refresher/Refresher.tsx';
import { SquarePage } from './pages/Square.tsx';
import { TomokagePage } from './pages/Tomokage.tsx';
import { UploadPage } from './pages/Upload.tsx';
import { UserCenterPage } from './pages/UserCenter.tsx';

/** PC pages keep the 1920×952 design and scale with the window; phones get their own pages, unscaled. */
function Scaled() {
  const phone = isPhone();
  usePageViews();
  const [scale, setScale] = useState(() => designScale(window.innerWidth, window.innerHeight));
  useEffect(() => blockBrowserZoom(), []);
  useLayoutEffect(() => {
    const on = () => setScale(designScale(window.innerWidth, window.innerHeight));
    window.addEventListener('resize', on);
    return () => window.removeEventListener('resize', on);
  }, []);
  if (phone)
    return (
      <div className="app app-phone">
        <Guard>
          <Outlet />
        </Guard>
        <Messages />
      </div>
    );
  return (
    <div
      className="app app-pc"
      style={{ zoom: scale, width: `${100 / scale}vw`, height: `${100 / scale}vh` } as React.CSSProperties}
      data-scale={scale}
    >
      <Guard>
        <Outlet />
      </Guard>
      <Messages />
    </div>
  );
}

export const routes = [
  {
    element: <Scaled />,
    children: [
      { path: '/', element: <Navigate to="/index/myPro" replace /> },
      { path: '/home', element: <HomePage /> },
      { path: '/login', element: <LoginPage /> },
      { path: '/register', element: <RegisterPage /> },
      {
        path: '/index',
        element: <Layout />,
        children: [
          { index: true, element: <Navigate to="/index/myPro" replace /> },
          { path: 'myPro', element: <DeviceRedirect pc="/index/myProPc" mobile="/index/myPromobile" /> },
          { path: 'myProPc', element: <MyProPage /> },
          { path: 'myPromobile', element: <MyProPage mobile /> },
          { path: 'upload', element: <DeviceRedirect pc="/index/uploadPc" mobile="/index/uploadMobile" /> },
          { path: 'uploadPc', element: <UploadPage /> },
          { path: 'uploadMobile', element: <UploadPage mobile /> },
          { path: 'square', element: <SquarePage /> },
          { path: 'marked', element: <MarkedPage /> },
          { path: 'userDetailCompany', element: <UserDetailCompanyPage /> },
          { path: 'recharge', element: <RechargePage /> },
          { path: 'consume', element: <ConsumePage /> },
          { path: 'tutorial', element: <TutorialPage /> },
          { path: 'music', element: <MusicPage /> },
          { path: 'tomokage', element: <TomokagePage /> },
          { path: 'animation', element: <AnimationPage /> },
          { path: 'mmd', element: <MmdPage /> },
          { path: 'experiment', element: <ExperimentPage /> },
          { path: 'wisdom', element: <WisdomPage /> },
          ...adminRoutes,
          { path: '*', element: <Navigate to="/404" replace /> },
        ],
      },
      { path: '/userCenter', element: <UserCenterPage /> },
      { path: '/companyDetaile', element: <Navigate to="/index/userDetailCompany" replace /> },
      { path: '/refresher', element: <RefresherRoute /> },
      { path: '/refresherM', element: <RefresherRoute mobile /> },
      { path: '/asPay/index', element: <PricingPage /> },
      { path: '/asPay/view', element: <PayViewPage /> },
      { path: '/404', element: <NotFoundPage /> },
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
];

export const BASENAME = '/capture';

export function App({ basename = BASENAME }: { basename?: string }) {
  const [router] = useState(() => createBrowserRouter(routes, { basename }));
  return (
    <SessionProvider>
      <RouterProvider router={router} />
    </SessionProvider>
  );
}
