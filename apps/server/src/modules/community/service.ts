/**
 * The community panel of the sidebar (issue 25, spec §1 and §2: "a community panel with QR codes, a tutorial link
 * and a browser recommendation"; community groups "an official account, a chat group, a second chat group"),
 * configurable by administrators. Each group has a link (the panel draws its QR code) and optionally a QR
 * picture uploaded through POST /file/upload (purpose qrcode; a chat-app group code is a picture, not a link),
 * served as a signed webp. Stored as one setting (`community`) of the system settings.
 */
import { AppError, Codes } from '../../errors.ts';
import type { Clock, SysConfigRepo } from '../../ports.ts';
import { FILE_PREFIX } from '../file/service.ts';

export const COMMUNITY_GROUPS = ['official', 'group', 'group2'] as const;
export type CommunityGroup = (typeof COMMUNITY_GROUPS)[number];
const SETTING = 'community';

export interface CommunityEntrySetting {
  /** Link the QR code opens (https only), or ''. */
  url: string;
  /** An uploaded QR picture (uploadZM/…), or ''. */
  imageKey: string;
  /** Shown under the code (e.g. the group number), or ''. */
  note: string;
}

export interface CommunitySettings {
  groups: Record<CommunityGroup, CommunityEntrySetting>;
  tutorialUrl: string;
  /** Show the Chromium-type browser recommendation. */
  browserTip: boolean;
}

export interface CommunityView {
  groups: { key: CommunityGroup; url: string; imageUrl: string | null; note: string }[];
  tutorialUrl: string;
  browserTip: boolean;
}

export interface CommunityDeps {
  settings: SysConfigRepo;
  clock: Clock;
  /** Whether an uploaded file exists (the QR pictures). */
  fileExists(key: string): Promise<boolean>;
  /** A signed webp URL of an uploaded QR picture. */
  imageUrl(key: string): Promise<string>;
}

const EMPTY: CommunitySettings = {
  groups: {
    official: { url: '', imageKey: '', note: '' },
    group: { url: '', imageKey: '', note: '' },
    group2: { url: '', imageKey: '', note: '' },
  },
  tutorialUrl: '',
  browserTip: true,
};

export class CommunityService {
  constructor(private readonly deps: CommunityDeps) {}

  async settings(): Promise<CommunitySettings> {
    const raw = await this.deps.settings.get(SETTING);
    if (!raw) return structuredClone(EMPTY);
    try {
      const s = JSON.parse(raw) as Partial<CommunitySettings>;
      return {
        groups: Object.fromEntries(
          COMMUNITY_GROUPS.map((g) => [g, { ...EMPTY.groups[g], ...(s.groups?.[g] ?? {}) }]),
        ) as CommunitySettings['groups'],
        tutorialUrl: s.tutorialUrl ?? '',
        browserTip: s.browserTip ?? true,
      };
    } catch {
      return structuredClone(EMPTY);
    }
  }

  /** What the sidebar shows: groups with a link or a picture, the tutorial link, the browser tip. */
  async view(): Promise<CommunityView> {
    const s = await this.settings();
    const groups: CommunityView['groups'] = [];
    for (const key of COMMUNITY_GROUPS) {
      const g = s.groups[key];
      if (!g.url && !g.imageKey) continue;
      const imageUrl = g.imageKey ? await this.deps.imageUrl(g.imageKey).catch(() => null) : null;
      if (!g.url && !imageUrl) continue;
      groups.push({ key, url: g.url, imageUrl, note: g.note });
    }
    return { groups, tutorialUrl: s.tutorialUrl, browserTip: s.browserTip };
  }

  async save(input: {
    groups?: Partial<Record<CommunityGroup, Partial<CommunityEntrySetting>>> | undefined;
    tutorialUrl?: string | undefined;
    browserTip?: boolean | undefined;
  }): Promise<CommunitySettings> {
    const s = await this.settings();
    for (const key of COMMUNITY_GROUPS) {
      const g = input.groups?.[key];
      if (!g) continue;
      const next = { ...s.groups[key], ...g };
      if (next.url && !isHttps(next.url))
        throw new AppError(Codes.PARAMETER_ERROR, `${key}: the link must be an https:// address`);
      if (next.imageKey) {
        if (!next.imageKey.startsWith(FILE_PREFIX) || !(await this.deps.fileExists(next.imageKey)))
          throw new AppError(
            Codes.PARAMETER_ERROR,
            `${key}: upload the QR picture first (POST /file/upload)`,
          );
      }
      s.groups[key] = next;
    }
    if (input.tutorialUrl !== undefined) {
      if (input.tutorialUrl && !isHttps(input.tutorialUrl))
        throw new AppError(Codes.PARAMETER_ERROR, 'the tutorial link must be an https:// address');
      s.tutorialUrl = input.tutorialUrl;
    }
    if (input.browserTip !== undefined) s.browserTip = input.browserTip;
    await this.deps.settings.set(SETTING, JSON.stringify(s), this.deps.clock.now());
    return s;
  }
}

function isHttps(u: string): boolean {
  try {
    return new URL(u).protocol === 'https:';
  } catch {
    return false;
  }
}
