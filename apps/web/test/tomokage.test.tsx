// @vitest-environment happy-dom
/**
 * The digital-human entry of the sidebar and of the phone tab bar (issue 24): shown to individual accounts and
 * opening /index/tomokage, hidden from company accounts, disabled with the maintenance label while
 * `/tomokage/checkMaintain` says so; and the mapping editor's joint names in both languages.
 */
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MobileTabBar, Sidebar } from '../src/components/Sidebar.tsx';
import { jointLabel } from '../src/i18n/tomokage.ts';
import { setLangForTests } from '../src/lib/i18n.ts';
import { makeUser, renderNav } from './helpers.tsx';

afterEach(() => cleanup());
const TOMOKAGE = { '/index/tomokage': 'TOMOKAGE PAGE' };

describe('sidebar digital-human button', () => {
  it('individual account: opens the digital-human page', async () => {
    setLangForTests('en');
    const { router } = renderNav(<Sidebar tomoMaintain={false} />, makeUser({}, 1), TOMOKAGE);
    const btn = screen.getByTestId('digital-human') as HTMLButtonElement;
    expect(btn.disabled).toBe(false);
    expect(btn.textContent).toContain('Digital human');
    fireEvent.click(btn);
    expect(await screen.findByText('TOMOKAGE PAGE')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/index/tomokage');
  });

  it('maintenance: disabled, with the maintenance label (zh)', () => {
    setLangForTests('zh');
    renderNav(<Sidebar tomoMaintain={true} />, makeUser({}, 1));
    const btn = screen.getByTestId('digital-human') as HTMLButtonElement;
    expect(btn.disabled).toBe(true);
    expect(btn.textContent).toContain('维护中');
  });

  it('company account: no button', () => {
    setLangForTests('en');
    renderNav(<Sidebar tomoMaintain={false} />, makeUser({ type: 2 }, 1));
    expect(screen.queryByTestId('digital-human')).toBeNull();
  });
});

describe('phone tab bar digital-human tab', () => {
  it('individual account: a tab between the menu and Me that opens the digital-human page', async () => {
    setLangForTests('en');
    const { router } = renderNav(<MobileTabBar tomoMaintain={false} />, makeUser({}, 1), TOMOKAGE);
    const tabs = [...document.querySelectorAll('.tabbar .tab')].map((b) => b.textContent);
    expect(tabs.slice(-2)).toEqual(['Digital human', 'Me']);
    const tab = screen.getByTestId('tab-digital-human');
    expect(tab.getAttribute('aria-disabled')).toBe('false');
    fireEvent.click(tab);
    expect(await screen.findByText('TOMOKAGE PAGE')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/index/tomokage');
  });

  it('maintenance: greyed out, says so and stays (zh)', () => {
    setLangForTests('zh');
    const { router } = renderNav(<MobileTabBar tomoMaintain={true} />, makeUser({}, 1));
    const tab = screen.getByTestId('tab-digital-human');
    expect(tab.className).toContain('inactive');
    expect(tab.getAttribute('title')).toContain('维护中');
    fireEvent.click(tab);
    expect(router.state.location.pathname).toBe('/x');
  });

  it('company account: no tab', () => {
    setLangForTests('en');
    renderNav(<MobileTabBar />, makeUser({ type: 2 }, 1));
    expect(screen.queryByTestId('tab-digital-human')).toBeNull();
  });
});

describe('joint names of the mapping editor', () => {
  it('reads in English and Chinese', () => {
    expect(jointLabel('leftUpperArm', 'en')).toBe('Left upper arm');
    expect(jointLabel('rightPinky2', 'en')).toBe('Right little 2');
    expect(jointLabel('spine2', 'zh')).toBe('胸部');
    expect(jointLabel('leftThumb1', 'zh')).toBe('左拇指 1');
  });
});
